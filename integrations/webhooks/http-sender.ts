// The HTTP side of a webhook attempt: check the destination, POST to the checked address (the Host
// header and TLS server name keep the URL's host), read at most the first 4 KiB of the answer,
// give up after `webhooks.timeout-ms`. Redirects are never followed: a 3xx is just an answer.
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { rangeMatcher } from '../../domain/net/address-ranges';
import type { Settings } from '../../domain/settings';
import type { DestinationPolicy } from '../../domain/webhooks/destination-rules';
import { checkDestination, DestinationRefused, systemLookup, type AddressLookup, type CheckedDestination } from './destination';

/** How much of an answer's body the delivery log keeps. */
export const RESPONSE_BODY_BYTES = 4096;

const USER_AGENT = 'tenant-capability-platform-webhooks/1';

export interface WebhookRequest {
  url: string;
  /** The Standard Webhooks headers and the content type. */
  headers: Record<string, string>;
  body: string;
}

/** One attempt's result: an answer (statusCode) or why there was none (error: words, never an address). */
export interface WebhookAnswer {
  statusCode: number | null;
  durationMs: number;
  /** The first 4 KiB of the answer's body as text (NUL replaced, so it can be stored). */
  body: string | null;
  retryAfter: string | null;
  error: string | null;
}

export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookAnswer>;
}

type SenderSettings = Pick<Settings, 'webhooks.timeout-ms' | 'webhooks.allow-http' | 'webhooks.allow-private-networks'>;

/** The destination policy of the current settings (read per call: a test may change them). */
export function destinationPolicy(settings: Pick<Settings, 'webhooks.allow-http' | 'webhooks.allow-private-networks'>): DestinationPolicy {
  return { allowHttp: settings['webhooks.allow-http'], allowsPrivate: rangeMatcher(settings['webhooks.allow-private-networks']) };
}

/** Built once per worker process (its composition root): one keep-alive agent per scheme. */
export function createWebhookSender(settings: SenderSettings, lookup: AddressLookup = systemLookup): WebhookSender {
  const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
  return {
    async send(request) {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      let destination: CheckedDestination;
      try {
        destination = await checkDestination(request.url, destinationPolicy(settings), lookup);
      } catch (err) {
        if (!(err instanceof DestinationRefused)) throw err;
        return { statusCode: null, durationMs: elapsed(), body: null, retryAfter: null, error: err.message };
      }
      const answer = await post(destination, request, settings['webhooks.timeout-ms'], agents);
      return { ...answer, durationMs: elapsed() };
    },
  };
}

function post(
  d: CheckedDestination,
  request: WebhookRequest,
  timeoutMs: number,
  agents: { http: http.Agent; https: https.Agent },
): Promise<Omit<WebhookAnswer, 'durationMs'>> {
  const secure = d.url.protocol === 'https:';
  return new Promise((resolve) => {
    let settled = false;
    const settle = (answer: Omit<WebhookAnswer, 'durationMs'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(answer);
    };
    const failed = (err: Error) => settle({ statusCode: null, body: null, retryAfter: null, error: describeError(err) });
    const req = (secure ? https : http).request(
      {
        host: d.address,
        family: d.family,
        port: d.url.port || (secure ? 443 : 80),
        path: `${d.url.pathname}${d.url.search}`,
        method: 'POST',
        agent: secure ? agents.https : agents.http,
        // SNI and certificate checks name the URL's host; an address literal is checked as such.
        ...(secure && isIP(d.host) === 0 ? { servername: d.host } : {}),
        headers: {
          ...request.headers,
          host: d.url.host,
          'user-agent': USER_AGENT,
          'content-length': String(Buffer.byteLength(request.body)),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () =>
          settle({
            statusCode: res.statusCode ?? null,
            body: Buffer.concat(chunks).subarray(0, RESPONSE_BODY_BYTES).toString('utf8').replace(/\u0000/g, '\uFFFD'),
            retryAfter: headerValue(res.headers['retry-after']),
            error: null,
          });
        res.on('data', (chunk: Buffer) => {
          chunks.push(chunk);
          size += chunk.length;
          // The rest of a long body is never read: the log keeps 4 KiB, and a receiver cannot make us read forever.
          if (size >= RESPONSE_BODY_BYTES) {
            done();
            res.destroy();
          }
        });
        res.on('end', done);
        res.on('close', done);
        res.on('error', done);
      },
    );
    const timer = setTimeout(() => req.destroy(new TimeoutError()), timeoutMs);
    req.on('error', failed);
    req.end(request.body);
  });
}

class TimeoutError extends Error {
  readonly code = 'TIMEOUT';
}

const headerValue = (v: string | string[] | undefined) => (Array.isArray(v) ? (v[0] ?? null) : (v ?? null));

/** Words for a failed request: its error code only (Node's messages name the address). */
function describeError(err: Error): string {
  if (err instanceof TimeoutError) return 'timed out';
  const code = (err as NodeJS.ErrnoException).code;
  return code ? `request failed (${code})` : 'request failed';
}
