// The audit view of a public request's sender. The address follows the rate limits' rule
// (client-address.ts); the classification is offline (domain/net/ip-risk.ts); the country comes
// from a trusted gateway's header, else from the offline database, and only for a public address
// (a private or reserved one has no country).
import type { Context } from 'hono';
import type { ClientContext } from '../../domain/net/client-context';
import { GATEWAY_COUNTRY_HEADERS, gatewayCountry } from '../../domain/net/gateway-country';
import { canonicalAddress } from '../../domain/net/address-ranges';
import { ipRisk } from '../../domain/net/ip-risk';
import { countryOf } from '../../integrations/geo/country-database';
import type { AppEnv } from '../env';
import { clientHop } from './client-address';

const USER_AGENT_MAX = 512;

export function clientContext(c: Context<AppEnv>): ClientContext {
  const settings = c.get('deps').settings;
  const hop = clientHop(c);
  const ip = canonicalAddress(hop.address);
  const userAgent = c.req.header('user-agent')?.slice(0, USER_AGENT_MAX) ?? null;
  const risk = ip ? ipRisk(ip) : null;
  let geo: string | null = null;
  if (risk === 'public') {
    const geoHeader = settings['http.geo-header'];
    if (hop.viaTrustedProxy) geo = gatewayCountry((name) => c.req.header(name), geoHeader ? [geoHeader] : GATEWAY_COUNTRY_HEADERS);
    if (geo === null && settings['http.geo-database']) geo = countryOf(ip!);
  }
  return { ip, userAgent, ipRisk: risk, geo };
}
