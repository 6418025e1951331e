import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/** What @hono/node-server hands a request as its env: Node's own request and response. */
interface NodeBindings {
  incoming?: IncomingMessage;
}

const nodeOf = (c: Context) => c.env as NodeBindings | undefined;

/**
 * A request header (`name` in lower case), from Node's parsed headers when the node server
 * serves the request. `c.req.header()` builds a WHATWG Headers copy of every header on its first
 * use (about 2 µs), a tenth of a cached read; read here, a request that needs only a few headers
 * never pays for it. Repeated headers are joined with ", " either way. Elsewhere (`app.request()`
 * in tests, whose env may carry only a socket for the client address) the Request's own headers.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const headers = nodeOf(c)?.incoming?.headers;
  if (!headers) return c.req.header(name);
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
