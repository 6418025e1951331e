// Resolves an endpoint URL to the one address a delivery connects to, refusing what the rules of
// domain/webhooks/destination-rules.ts refuse. Every address the host resolves to must pass (a name
// resolving to a public and a private address is refused), and the caller connects to the address
// returned, never resolving again: a DNS answer that changes between check and connect
// (rebinding) cannot redirect the request.
import { lookup as dnsLookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import {
  addressRefusal,
  urlRefusal,
  type DestinationPolicy,
  type DestinationRefusal,
} from '../../domain/webhooks/destination-rules';

/** A DNS lookup returning every address of a name; injectable so a unit test can name what a host resolves to. */
export type AddressLookup = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export const systemLookup: AddressLookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface CheckedDestination {
  url: URL;
  /** The URL's host as written (name or address literal), for the Host header and TLS server name. */
  host: string;
  /** The address to connect to, checked. */
  address: string;
  family: 4 | 6;
}

export class DestinationRefused extends Error {
  constructor(readonly refusal: DestinationRefusal) {
    super(`destination refused: ${refusal}`);
    this.name = 'DestinationRefused';
  }
}

/** The checked address for `text`, or DestinationRefused naming why not. */
export async function checkDestination(text: string, policy: DestinationPolicy, lookup: AddressLookup = systemLookup): Promise<CheckedDestination> {
  const parsed = urlRefusal(text, policy);
  if ('refusal' in parsed) throw new DestinationRefused(parsed.refusal);
  const { url, host } = parsed;
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(host) !== 0) addresses = [{ address: host, family: isIP(host) }];
  else {
    try {
      addresses = await withinLookupTime(lookup(host));
    } catch {
      throw new DestinationRefused('unresolvable');
    }
  }
  if (addresses.length === 0) throw new DestinationRefused('unresolvable');
  for (const { address } of addresses) {
    const refusal = addressRefusal(address, policy);
    if (refusal) throw new DestinationRefused(refusal);
  }
  const first = addresses[0]!;
  return { url, host, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** A name that does not resolve in this long does not resolve: a request never waits on a dead resolver. */
const LOOKUP_TIMEOUT_MS = 5_000;

function withinLookupTime<T>(pending: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('lookup timed out')), LOOKUP_TIMEOUT_MS);
  });
  return Promise.race([pending, late]).finally(() => clearTimeout(timer));
}
