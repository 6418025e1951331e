// Where a webhook may go (docs/webhooks.md "Destinations"): the rules on a URL and on each address
// its host resolves to. Pure: the lookup is the integration's (integrations/webhooks/destination.ts).
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export const DESTINATION_REFUSALS = [
  'invalid-url',
  'scheme',
  'credentials',
  'unresolvable',
  'loopback',
  'private',
  'link-local',
  'metadata',
  'multicast',
  'reserved',
  'ipv4-mapped',
] as const;
export type DestinationRefusal = (typeof DESTINATION_REFUSALS)[number];

export interface DestinationPolicy {
  /** `webhooks.allow-http`: plain http besides https. */
  allowHttp: boolean;
  /** `webhooks.allow-private-networks` as a matcher: loopback, private and reserved addresses it lets through. */
  allowsPrivate: (address: string) => boolean;
}

/** Cloud metadata services: refused whatever the settings allow (AWS, GCP, Azure, ECS, Alibaba, AWS IPv6). */
const METADATA = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

/** IPv6 ranges that carry an IPv4 address inside: a way around an IPv4 rule, refused always. */
const EMBEDDING_V4 = new Set(['ipv4Mapped', 'rfc6145', 'rfc6052', '6to4', 'teredo']);

/** The URL's own refusal (scheme, credentials), or its host and port. */
export function urlRefusal(text: string, policy: Pick<DestinationPolicy, 'allowHttp'>): { refusal: DestinationRefusal } | { url: URL; host: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { refusal: 'invalid-url' };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) return { refusal: 'scheme' };
  if (url.username || url.password) return { refusal: 'credentials' };
  // WHATWG URL already canonicalised odd IPv4 forms (0x7f.1, 2130706433) to dotted quads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) return { refusal: 'invalid-url' };
  return { url, host };
}

/** Why a resolved address may not be connected to, or null when it may. */
export function addressRefusal(address: string, policy: Pick<DestinationPolicy, 'allowsPrivate'>): DestinationRefusal | null {
  if (isIP(address) === 0) return 'unresolvable';
  const parsed = ipaddr.parse(address);
  const canonical = parsed.toString();
  const range = parsed.range();
  if (METADATA.has(canonical)) return 'metadata';
  if (parsed.kind() === 'ipv6' && EMBEDDING_V4.has(range)) return 'ipv4-mapped';
  if (range === 'linkLocal') return 'link-local';
  if (range === 'unicast') return null;
  if (policy.allowsPrivate(canonical)) return null;
  if (range === 'loopback') return 'loopback';
  if (range === 'private' || range === 'uniqueLocal' || range === 'carrierGradeNat') return 'private';
  if (range === 'multicast') return 'multicast';
  return 'reserved';
}

/** Words for a refusal, for the problem detail and the delivery log. */
export const REFUSAL_DETAIL: Record<DestinationRefusal, string> = {
  'invalid-url': 'the URL is not an absolute URL',
  scheme: 'the URL must use https',
  credentials: 'the URL must not carry a user name or password',
  unresolvable: 'the host name does not resolve',
  loopback: 'the host resolves to a loopback address',
  private: 'the host resolves to a private address',
  'link-local': 'the host resolves to a link-local address',
  metadata: 'the host resolves to a cloud metadata address',
  multicast: 'the host resolves to a multicast address',
  reserved: 'the host resolves to a reserved or unspecified address',
  'ipv4-mapped': 'the host resolves to an IPv6 address carrying an IPv4 address',
};
