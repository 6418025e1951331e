// The client address of a request, as the rate limits see it: the socket's peer, unless that peer
// is a trusted proxy (setting http.trusted-proxies), then the first hop of X-Forwarded-For that is
// not a trusted proxy, read from the right (the left part is whatever the client wrote).
import type { Context } from 'hono';
import type { AppEnv } from '../env';

const normalise = (address: string) => address.trim().replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '').toLowerCase();

export function clientAddressOf(socketAddress: string | undefined, forwardedFor: string | undefined, trusted: readonly string[]): string {
  const peer = socketAddress ? normalise(socketAddress) : 'unknown';
  const trustedSet = new Set(trusted.map(normalise));
  if (!trustedSet.has(peer) || !forwardedFor) return peer;
  const hops = forwardedFor.split(',').map(normalise).filter((h) => h.length > 0 && h.length <= 100);
  for (let i = hops.length - 1; i >= 0; i--) if (!trustedSet.has(hops[i]!)) return hops[i]!;
  return hops[0] ?? peer;
}

export function clientAddress(c: Context<AppEnv>): string {
  const socket = (c.env as { incoming?: { socket?: { remoteAddress?: string } } } | undefined)?.incoming?.socket?.remoteAddress;
  return clientAddressOf(socket, c.req.header('x-forwarded-for'), c.get('deps').settings['http.trusted-proxies']);
}
