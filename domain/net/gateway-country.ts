// The client country a gateway in front of the service wrote into a header. Only a trusted
// proxy's headers are read (the caller decides); codes that name no country are dropped:
// Cloudflare's XX (unknown) and T1 (Tor), and anything that is not two letters.
export const GATEWAY_COUNTRY_HEADERS = ['cf-ipcountry', 'x-vercel-ip-country', 'cloudfront-viewer-country'] as const;

const NOT_A_COUNTRY = new Set(['XX', 'T1']);

/** The first header (of `names`, in order) holding an ISO 3166-1 alpha-2 code, upper-cased; null when none does. */
export function gatewayCountry(header: (name: string) => string | undefined, names: readonly string[]): string | null {
  for (const name of names) {
    const code = header(name)?.trim().toUpperCase();
    if (code && /^[A-Z]{2}$/.test(code) && !NOT_A_COUNTRY.has(code)) return code;
  }
  return null;
}
