// The webhook HTTP sender against a local server (docs/webhooks.md "Destinations", "One attempt"):
// the connection goes to the address the check resolved (no second lookup, so a DNS answer that
// changes cannot redirect it), every attempt checks again, and `webhooks.timeout-ms` bounds an
// attempt whose receiver never answers. The DNS lookup is the one stand-in: a table, as in
// destination.test.ts.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { AddressLookup } from '../../../integrations/webhooks/destination';
import { createWebhookSender } from '../../../integrations/webhooks/http-sender';

const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

interface Seen {
  host: string | undefined;
  url: string | undefined;
  body: string;
}

/** A receiver on 127.0.0.1 answering with `answer` (or never, when it is null). */
async function receiver(answer: ((req: IncomingMessage, res: ServerResponse) => void) | null) {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ host: req.headers.host, url: req.url, body: Buffer.concat(chunks).toString('utf8') });
      answer?.(req, res);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { seen, port: (server.address() as AddressInfo).port };
}

const settings = (over: { timeout?: number; allowed?: string[] } = {}) => ({
  'webhooks.timeout-ms': over.timeout ?? 15_000,
  'webhooks.allow-http': true,
  'webhooks.allow-private-networks': over.allowed ?? ['127.0.0.0/8'],
});

const request = (url: string) => ({ url, headers: { 'content-type': 'application/json', 'webhook-id': 'msg_1' }, body: '{"type":"webhook.test"}' });

describe('webhook HTTP sender', () => {
  it('connects to the address the check resolved, once: the Host header keeps the name, and a rebound DNS answer is checked at the next attempt, never followed', async () => {
    const r = await receiver((_req, res) => res.writeHead(200).end('ok'));
    // `.invalid` never resolves through the system resolver (RFC 6761): the request can reach the
    // receiver only through the address the check handed over.
    const host = 'hooks.rebind.invalid';
    const answers = [['127.0.0.1'], ['10.0.0.7']];
    const asked: string[] = [];
    const lookup: AddressLookup = async (name) => {
      asked.push(name);
      return (answers[asked.length - 1] ?? ['10.0.0.7']).map((address) => ({ address, family: 4 }));
    };
    const sender = createWebhookSender(settings(), lookup);

    const first = await sender.send(request(`http://${host}:${r.port}/in?x=1`));
    expect(first).toMatchObject({ statusCode: 200, body: 'ok', error: null });
    expect(asked).toEqual([host]);
    expect(r.seen).toEqual([{ host: `${host}:${r.port}`, url: '/in?x=1', body: '{"type":"webhook.test"}' }]);

    // The name now answers a private address: the next attempt is refused before any connection.
    const second = await sender.send(request(`http://${host}:${r.port}/in?x=1`));
    expect(second).toMatchObject({ statusCode: null, body: null, error: 'destination refused: private' });
    expect(asked).toEqual([host, host]);
    expect(r.seen).toHaveLength(1);
  });

  it('refuses at attempt time a name resolving to a private, loopback, metadata or IPv4-mapped address, naming the reason and never an address', async () => {
    const table: Record<string, string> = {
      'private.example.com': '192.168.4.4',
      'loop6.example.com': '::1',
      'metadata.example.com': '169.254.169.254',
      'mapped.example.com': '::ffff:127.0.0.1',
    };
    const lookup: AddressLookup = async (name) => [{ address: table[name]!, family: table[name]!.includes(':') ? 6 : 4 }];
    // Even with every IPv4 and IPv6 range allowed, metadata and mapped addresses stay refused.
    const open = createWebhookSender(settings({ allowed: ['0.0.0.0/0', '::/0'] }), lookup);
    const closed = createWebhookSender(settings({ allowed: [] }), lookup);
    expect((await closed.send(request('http://private.example.com/'))).error).toBe('destination refused: private');
    expect((await closed.send(request('http://loop6.example.com/'))).error).toBe('destination refused: loopback');
    expect((await open.send(request('http://metadata.example.com/'))).error).toBe('destination refused: metadata');
    expect((await open.send(request('http://mapped.example.com/'))).error).toBe('destination refused: ipv4-mapped');
    expect((await closed.send(request('https://[::ffff:10.0.0.1]/'))).error).toBe('destination refused: ipv4-mapped');
  });

  it('a receiver that never answers is a failed attempt after webhooks.timeout-ms: "timed out", no status', async () => {
    const r = await receiver(null);
    const sender = createWebhookSender(settings({ timeout: 200 }));
    const answer = await sender.send(request(`http://127.0.0.1:${r.port}/slow`));
    expect(answer).toMatchObject({ statusCode: null, body: null, error: 'timed out' });
  });

  it('a redirect is an answer, never followed; Retry-After is passed on for the retry policy', async () => {
    const target = await receiver((_req, res) => res.writeHead(200).end());
    const r = await receiver((req, res) =>
      req.url === '/moved'
        ? res.writeHead(307, { location: `http://127.0.0.1:${target.port}/elsewhere` }).end()
        : res.writeHead(503, { 'retry-after': '120' }).end('busy'),
    );
    const sender = createWebhookSender(settings());
    expect(await sender.send(request(`http://127.0.0.1:${r.port}/moved`))).toMatchObject({ statusCode: 307, error: null });
    expect(target.seen).toHaveLength(0);
    expect(await sender.send(request(`http://127.0.0.1:${r.port}/busy`))).toMatchObject({ statusCode: 503, body: 'busy', retryAfter: '120' });
  });
});
