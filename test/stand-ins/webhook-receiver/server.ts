/**
 * A webhook receiver as a tenant would run one: a node:http server on 127.0.0.1 that verifies each
 * delivery's Standard Webhooks signature with the `standardwebhooks` package (every `v1,` signature
 * in the header checked against every secret it was told), records it, and answers as the test
 * scripted the path: a status, headers (Retry-After, Location) and a body, per request number.
 * Waiting is on events: `next(path, n)` resolves when the path has received n deliveries.
 */
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export interface ReceivedDelivery {
  path: string;
  /** 1-based, per path. */
  n: number;
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The parsed body when some trusted secret verified it, else undefined. */
  payload: { type: string; timestamp: string; data: Record<string, unknown> } | undefined;
  /** Which of the path's trusted secrets verified the delivery, by their position in `trust`. */
  verifiedBy: number[];
  headers: IncomingMessage['headers'];
}

export interface ScriptedAnswer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export type Script = (n: number) => ScriptedAnswer;

export interface WebhookReceiver {
  readonly base: string;
  url(path: string): string;
  /** The secrets a path's deliveries are verified with (current first, as the endpoint's answers gave them). */
  trust(path: string, ...secrets: string[]): void;
  /** How the path answers; 204 unless scripted. */
  script(path: string, script: Script): void;
  received(path: string): ReceivedDelivery[];
  /** Resolves with the path's deliveries once it has `count` of them. */
  next(path: string, count: number): Promise<ReceivedDelivery[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const trusted = new Map<string, string[]>();
  const scripts = new Map<string, Script>();
  const seen = new Map<string, ReceivedDelivery[]>();
  const waiters: Array<{ path: string; count: number; resolve: (d: ReceivedDelivery[]) => void }> = [];

  const verify = (path: string, body: string, headers: IncomingMessage['headers']) => {
    const flat = { 'webhook-id': String(headers['webhook-id'] ?? ''), 'webhook-timestamp': String(headers['webhook-timestamp'] ?? ''), 'webhook-signature': String(headers['webhook-signature'] ?? '') };
    const by: number[] = [];
    let payload: ReceivedDelivery['payload'];
    (trusted.get(path) ?? []).forEach((secret, i) => {
      try {
        payload = new Webhook(secret).verify(body, flat) as ReceivedDelivery['payload'];
        by.push(i);
      } catch {
        // Not signed with this secret.
      }
    });
    return { payload, by };
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = (req.url ?? '/').split('?')[0]!;
      const body = Buffer.concat(chunks).toString('utf8');
      const list = seen.get(path) ?? [];
      seen.set(path, list);
      const { payload, by } = verify(path, body, req.headers);
      const delivery: ReceivedDelivery = {
        path,
        n: list.length + 1,
        id: String(req.headers['webhook-id'] ?? ''),
        timestamp: String(req.headers['webhook-timestamp'] ?? ''),
        signature: String(req.headers['webhook-signature'] ?? ''),
        body,
        payload,
        verifiedBy: by,
        headers: req.headers,
      };
      list.push(delivery);
      const answer = scripts.get(path)?.(delivery.n) ?? { status: 204 };
      res.writeHead(answer.status, answer.headers ?? {});
      res.end(answer.body ?? '');
      for (const w of waiters.splice(0)) {
        if ((seen.get(w.path)?.length ?? 0) >= w.count) w.resolve(seen.get(w.path)!.slice());
        else waiters.push(w);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    base,
    url: (path) => `${base}${path}`,
    trust: (path, ...secrets) => void trusted.set(path, secrets),
    script: (path, script) => void scripts.set(path, script),
    received: (path) => (seen.get(path) ?? []).slice(),
    next: (path, count) =>
      new Promise((resolve) => {
        if ((seen.get(path)?.length ?? 0) >= count) resolve(seen.get(path)!.slice());
        else waiters.push({ path, count, resolve });
      }),
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
