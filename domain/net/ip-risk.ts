// An offline classification of a client address for audit trails (docs/signatures.md, "Client
// address, IP-risk and geo"). The ranges are the IANA special-purpose registries as ipaddr.js
// carries them; nothing is looked up. It says where a request came from (this host, an
// organisation's own network, a range that never reaches the public internet, or the internet),
// never who sent it, and decides no access.
import { parseAddress } from './address-ranges';

export const IP_RISKS = ['loopback', 'private', 'reserved', 'public'] as const;
export type IpRisk = (typeof IP_RISKS)[number];

// Special ranges that still carry traffic from the public internet: tunnels and translators
// (6to4, Teredo, NAT64) and anycast services (AS112, AMT).
const PUBLIC_SPECIAL = new Set(['unicast', '6to4', 'teredo', 'rfc6052', 'as112', 'as112v6', 'amt']);

/**
 * loopback: 127/8, ::1. private: RFC 1918 (10/8, 172.16/12, 192.168/16) and IPv6 unique local
 * fc00::/7 (RFC 4193, the same meaning). reserved: every other special-purpose range: unspecified,
 * broadcast, multicast, link-local (169.254/16, fe80::/10), CGNAT 100.64/10, documentation and
 * benchmarking, 240/4, site-local, discard, ORCHID. public: the rest. IPv4-mapped IPv6 is its
 * IPv4 address. Null when the text is no address.
 */
export function ipRisk(text: string): IpRisk | null {
  const address = parseAddress(text);
  if (!address) return null;
  const range = address.range();
  if (range === 'loopback') return 'loopback';
  if (range === 'private' || range === 'uniqueLocal') return 'private';
  return PUBLIC_SPECIAL.has(range) ? 'public' : 'reserved';
}
