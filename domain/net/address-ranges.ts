// Addresses and ranges as operators write them (setting http.trusted-proxies): an exact address
// or a CIDR block, IPv4 or IPv6. Parsing and matching are ipaddr.js's; an IPv4-mapped IPv6
// address is its IPv4 address, so `::ffff:10.0.0.1` is inside `10.0.0.0/8`.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/** The address as one canonical string (IPv4-mapped unwrapped, IPv6 compressed, lower case), or null when it is none. */
export function canonicalAddress(text: string): string | null {
  const address = parseAddress(text);
  return address ? address.toString() : null;
}

/**
 * ipaddr.js's parse, IPv4-mapped IPv6 unwrapped; null for anything else (a port, a name, garbage).
 * Only the dotted-quad and RFC 4291 forms count (node:net's rule): ipaddr.js alone would also read
 * `0x7f.1` or `2130706433` as addresses, which no socket or proxy writes.
 */
export function parseAddress(text: string): Address | null {
  const trimmed = text.trim();
  if (isIP(trimmed) === 0) return null;
  return ipaddr.process(trimmed);
}

function parseRange(entry: string): [Address, number] | null {
  const text = entry.trim();
  if (text.includes('/')) {
    if (!ipaddr.isValidCIDR(text)) return null;
    const [address, bits] = ipaddr.parseCIDR(text);
    // A mapped range is written for IPv4 clients: read it as the IPv4 range it holds.
    if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && bits >= 96) {
      return [(address as ipaddr.IPv6).toIPv4Address(), bits - 96];
    }
    return [address, bits];
  }
  const address = parseAddress(text);
  return address ? [address, address.kind() === 'ipv4' ? 32 : 128] : null;
}

/** True when the entry is an address or a CIDR block. */
export const isAddressRange = (entry: string) => parseRange(entry) !== null;

/** A membership test over a list of ranges; entries that do not parse match nothing. */
export function rangeMatcher(entries: readonly string[]): (address: string) => boolean {
  const ranges = entries.map(parseRange).filter((r): r is [Address, number] => r !== null);
  if (ranges.length === 0) return () => false;
  return (text) => {
    const address = parseAddress(text);
    return address !== null && ranges.some(([base, bits]) => base.kind() === address.kind() && address.match(base, bits));
  };
}
