// The client address of a request, as the rate limits and the audit see it: the socket's peer,
// unless that peer is a trusted proxy (setting http.trusted-proxies: addresses and CIDR blocks),
// then the first hop of X-Forwarded-For that is not a trusted proxy, read from the right (the left
// part is whatever the client wrote).
import type { Context } from 'hono';
import { canonicalAddress, rangeMatcher } from '../../domain/net/address-ranges';
import type { AppEnv } from '../env';

type Trusted = (address: string) => boolean;

const normalise = (address: string) => {
  const trimmed = address.trim();
  return canonicalAddress(trimmed) ?? trimmed.toLowerCase();
};

// One matcher per settings list (the settings object lives as long as the process).
const matchers = new WeakMap<readonly string[], Trusted>();
function trustedMatcher(trusted: readonly string[]): Trusted {
  let matcher = matchers.get(trusted);
  if (!matcher) {
    matcher = rangeMatcher(trusted);
    matchers.set(trusted, matcher);
  }
  return matcher;
}

export interface ClientHop {
  /** The client address (canonical when it is an address), or 'unknown' without a socket. */
  address: string;
  /** The socket's peer is a trusted proxy: its forwarding headers (and gateway headers) are believed. */
  viaTrustedProxy: boolean;
}

export function clientHopOf(socketAddress: string | undefined, forwardedFor: string | undefined, trusted: readonly string[]): ClientHop {
  const peer = socketAddress ? normalise(socketAddress) : 'unknown';
  const isTrusted = trustedMatcher(trusted);
  if (!isTrusted(peer)) return { address: peer, viaTrustedProxy: false };
  if (!forwardedFor) return { address: peer, viaTrustedProxy: true };
  const hops = forwardedFor.split(',').map(normalise).filter((h) => h.length > 0 && h.length <= 100);
  for (let i = hops.length - 1; i >= 0; i--) if (!isTrusted(hops[i]!)) return { address: hops[i]!, viaTrustedProxy: true };
  return { address: hops[0] ?? peer, viaTrustedProxy: true };
}

export const clientAddressOf = (socketAddress: string | undefined, forwardedFor: string | undefined, trusted: readonly string[]): string =>
  clientHopOf(socketAddress, forwardedFor, trusted).address;

export function clientHop(c: Context<AppEnv>): ClientHop {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return clientHopOf(socket, c.req.header('x-forwarded-for'), c.get('deps').settings['http.trusted-proxies']);
}

export const clientAddress = (c: Context<AppEnv>): string => clientHop(c).address;
