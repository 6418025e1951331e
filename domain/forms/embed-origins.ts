/**
 * Which origins may frame a form's hosted embed page (spec rule 4): the `frame-ancestors` source
 * list is built only from what this sanitiser keeps. Kept: `https://host[:port]` with a DNS name
 * or an IP address, and for development `http://localhost[:port]` and `http://127.0.0.1[:port]`.
 * Dropped (and reported): any other scheme, plain http elsewhere, paths, queries, fragments,
 * credentials, wildcards, and anything a CSP source expression could read as more than one origin.
 */

export interface OriginProblem {
  /** Index in the list given. */
  index: number;
  origin: string;
  message: string;
}

export interface SanitisedOrigins {
  /** Canonical (`URL.origin`), de-duplicated, in the order given. */
  origins: string[];
  dropped: OriginProblem[];
}

const DEV_HOSTS = new Set(['localhost', '127.0.0.1']);
/** What a CSP host-source may hold after the scheme: a host and an optional port, nothing that starts another source. */
const SAFE_ORIGIN = /^https?:\/\/(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/;

/** One origin's verdict: the canonical origin, or why it is dropped. */
export function sanitiseOrigin(value: string): { origin: string } | { reason: string } {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { reason: 'is not an origin such as https://shop.example' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { reason: 'must use https' };
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash || /[/?#]$/.test(value.replace(/^[a-z]+:\/\//i, '').replace(/\/$/, ''))) {
    return { reason: 'has more than scheme, host and port (a path, query, fragment or credentials)' };
  }
  if (url.protocol === 'http:' && !DEV_HOSTS.has(url.hostname)) {
    return { reason: 'uses plain http, allowed only for localhost and 127.0.0.1 (development); use https' };
  }
  if (!SAFE_ORIGIN.test(url.origin)) return { reason: 'has a host that cannot be written in a frame-ancestors policy' };
  return { origin: url.origin };
}

export function sanitiseEmbedOrigins(values: readonly string[]): SanitisedOrigins {
  const origins: string[] = [];
  const dropped: OriginProblem[] = [];
  values.forEach((value, index) => {
    const verdict = sanitiseOrigin(value);
    if ('reason' in verdict) dropped.push({ index, origin: value, message: `Embed origin ${JSON.stringify(value)} was dropped: it ${verdict.reason}` });
    else if (!origins.includes(verdict.origin)) origins.push(verdict.origin);
  });
  return { origins, dropped };
}

/** The `frame-ancestors` directive of the embed page: the kept origins, or `'none'` when there are none. */
export function frameAncestors(values: readonly string[]): string {
  const { origins } = sanitiseEmbedOrigins(values);
  return `frame-ancestors ${origins.length ? origins.join(' ') : "'none'"}`;
}

/**
 * Whether a page on `origin` may frame the form: the canonical origin must be one the sanitiser
 * keeps from `values` (what frame-ancestors lists). Anything unreadable as an origin may not.
 */
export function originAllowed(values: readonly string[], origin: string): boolean {
  const verdict = sanitiseOrigin(origin);
  return 'origin' in verdict && sanitiseEmbedOrigins(values).origins.includes(verdict.origin);
}
