import { randomBytes } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import type { Context } from 'hono';

const COUNTER_SPAN = 2 ** 48;
let prefix = '';
let counter = COUNTER_SPAN;

/**
 * A new request id shaped as a version 4 UUID: 74 random bits drawn once per process (and again
 * every 2^48 ids) and a counter in the last 48 bits. Ids are unique per process by the counter and
 * across processes by the random part; they are labels for correlating log lines, not secrets (a
 * caller may send its own). `randomUUID()` costs 1-2 µs a request on a loaded machine, the counter
 * a third of that (bench/access.bench.ts).
 */
export function newRequestId(): string {
  if (counter >= COUNTER_SPAN) {
    const hex = randomBytes(10).toString('hex');
    const variant = ((parseInt(hex[15]!, 16) & 0x3) | 0x8).toString(16);
    prefix = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(12, 15)}-${variant}${hex.slice(16, 19)}-`;
    counter = 0;
  }
  return prefix + (counter++).toString(16).padStart(12, '0');
}

const REQUEST_ID = Symbol('X-Request-Id of the answer');
type Answer = ServerResponse & { [REQUEST_ID]?: string };

/**
 * Puts `X-Request-Id: <id>` on the head of the request's answer, whatever route or error handler
 * builds it. On the node server the header joins the header object the adapter hands
 * `writeHead` (one object, written by Node's fast path); Node's own `setHeader` before it cost
 * its validation plus Node's slower merge of stored and given headers on every answer. Elsewhere
 * (`app.request()` in tests) it is Hono's response header.
 */
export function answerWithRequestId(c: Context, id: string): void {
  const outgoing = (c.env as { outgoing?: Answer } | undefined)?.outgoing;
  if (outgoing === undefined || typeof outgoing.writeHead !== 'function' || outgoing.headersSent) {
    c.header('X-Request-Id', id);
    return;
  }
  outgoing[REQUEST_ID] = id;
  outgoing.writeHead = writeHeadWithRequestId;
}

type WriteHead = (this: Answer, status: number, a?: unknown, b?: unknown) => Answer;

/** An answer's own `writeHead` while it carries a request id: the prototype's, with the id in the head. */
function writeHeadWithRequestId(this: Answer, status: number, a?: unknown, b?: unknown): Answer {
  const headers = typeof a === 'string' ? b : a;
  if (headers !== null && typeof headers === 'object' && !Array.isArray(headers)) (headers as OutgoingHttpHeaders)['X-Request-Id'] = this[REQUEST_ID];
  else this.setHeader('X-Request-Id', this[REQUEST_ID]!);
  return (Object.getPrototypeOf(this).writeHead as WriteHead).call(this, status, a, b);
}
