import { serve } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import { Hono } from 'hono';
import { createServer, request, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerWithRequestId, newRequestId } from '../../../api/middleware/request-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('new request ids', () => {
  it('are version 4 UUIDs, all different, a counter under one random prefix', () => {
    const ids = Array.from({ length: 5_000 }, () => newRequestId());
    for (const id of ids) expect(id).toMatch(UUID_V4);
    expect(new Set(ids).size).toBe(ids.length);
    const last = (id: string) => parseInt(id.slice(24), 16);
    expect(last(ids[1]!) - last(ids[0]!)).toBe(1);
    expect(new Set(ids.map((id) => id.slice(0, 24))).size).toBe(1);
  });
});

/** Each answer's head as the client reads it: status and headers. */
function get(port: number, path: string, method = 'GET') {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined> }>((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('X-Request-Id on every answer of the node server', () => {
  let server: ReturnType<typeof serve>;
  let port: number;
  let n = 0;
  beforeAll(async () => {
    const app = new Hono();
    app.use('*', async (c, next) => {
      answerWithRequestId(c, `id-${++n}`);
      await next();
    });
    app.get('/json', (c) => c.json({ ok: true }));
    app.get('/headers', (c) => c.body('x', 201, { 'X-Extra': 'a', 'Cache-Control': 'no-store' }));
    app.get('/stream', (c) => c.body(new ReadableStream({ start: (ctl) => (ctl.enqueue(new TextEncoder().encode('s')), ctl.close()) })));
    app.get('/raw', (c) => {
      // A handler writing Node's answer itself, as the document download does.
      const outgoing = (c.env as { outgoing: ServerResponse }).outgoing;
      outgoing.writeHead(200, 'Fine', { 'Content-Type': 'text/plain' });
      outgoing.end('raw');
      return RESPONSE_ALREADY_SENT;
    });
    app.get('/implicit', (c) => {
      const outgoing = (c.env as { outgoing: ServerResponse }).outgoing;
      outgoing.end('implicit head');
      return RESPONSE_ALREADY_SENT;
    });
    app.onError((_err, c) => c.text('failed', 500));
    app.get('/boom', () => {
      throw new Error('boom');
    });
    server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1', createServer });
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it.each(['/json', '/headers', '/stream', '/raw', '/implicit', '/boom', '/missing'])('%s carries its own id once', async (path) => {
    const before = n;
    const answer = await get(port, path);
    expect(answer.headers['x-request-id']).toBe(`id-${before + 1}`);
  });

  it("keeps the answer's other headers and status", async () => {
    const answer = await get(port, '/headers');
    expect(answer).toMatchObject({ status: 201, headers: { 'x-extra': 'a', 'cache-control': 'no-store' } });
    expect((await get(port, '/raw')).status).toBe(200);
  });

  it('HEAD answers carry it too', async () => {
    const answer = await get(port, '/json', 'HEAD');
    expect(answer.headers['x-request-id']).toMatch(/^id-\d+$/);
  });

  it('outside the node server (app.request) it is a response header', async () => {
    const app = new Hono();
    app.use('*', async (c, next) => {
      answerWithRequestId(c, 'in-memory');
      await next();
    });
    app.get('/', (c) => c.text('ok'));
    expect((await app.request('/')).headers.get('x-request-id')).toBe('in-memory');
  });
});
