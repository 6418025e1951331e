import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../api/server';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

const MiB = 1024 * 1024;
const CHUNK = Buffer.alloc(64 * 1024, 'a');

interface Sent { status: number; body: string; bytesSent: number; finished: boolean }

/**
 * Sends `total` bytes of a JSON-looking body in 64 KiB writes, each after the previous drained,
 * and stops writing once the answer is in: `finished` says whether the whole body went out.
 */
function send(port: number, path: string, total: number, opts: { chunked: boolean; headers?: Record<string, string> }): Promise<Sent> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'Content-Type': 'application/json', ...opts.headers };
    if (!opts.chunked) headers['Content-Length'] = total;
    const req = http.request({ host: '127.0.0.1', port, path, method: 'POST', headers });
    let bytesSent = 0;
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => {
        resolve({ status: res.statusCode!, body, bytesSent, finished: bytesSent >= total });
        req.destroy();
      });
    });
    // The server may close the connection after answering: that is the point, not a failure.
    req.on('error', (err) => (answered ? undefined : reject(err)));
    const pump = () => {
      while (!answered && bytesSent < total) {
        const n = Math.min(CHUNK.length, total - bytesSent);
        bytesSent += n;
        if (!req.write(n === CHUNK.length ? CHUNK : CHUNK.subarray(0, n))) return void req.once('drain', pump);
      }
      if (!answered) req.end();
    };
    req.write('{"name":"');
    pump();
  });
}

describe('bounded bodies (issue 11 §3)', () => {
  const ctx = useTestApp();
  let server: RunningServer;
  let owner: { user: string; tenant: string };

  beforeAll(async () => {
    server = await startServer(ctx.deps, 0, '127.0.0.1');
    const t = await seedTenant(ctx);
    owner = { user: t.owner, tenant: t.id };
  });
  afterAll(async () => server?.close());

  const who = () => ({ 'X-User-Id': owner.user, 'X-Tenant-Id': owner.tenant });

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('a 50 MB JSON body %s is answered 413 before the client finished sending it', async (_, chunked) => {
    const r = await send(server.port, '/api/tenants', 50 * MiB, { chunked, headers: who() });
    expect(r.status, r.body).toBe(413);
    expect(JSON.parse(r.body)).toMatchObject({ code: 'payload-too-large', detail: expect.stringContaining(`${MiB} bytes`) });
    expect(r.finished).toBe(false);
    expect(r.bytesSent).toBeLessThan(50 * MiB);
  });

  it('the bound is http.max-body-bytes: just under it is parsed (400 for this shape), just over it is 413', async () => {
    const under = await send(server.port, '/api/tenants', MiB - 100, { chunked: true, headers: who() });
    expect(under.status, under.body).toBe(400);
    expect(JSON.parse(under.body).code).not.toBe('payload-too-large');
    const over = await send(server.port, '/api/tenants', MiB + 100, { chunked: true, headers: who() });
    expect(over.status, over.body).toBe(413);
  });

  it('a route with its own larger bound keeps it (render: 2 MiB)', async () => {
    const r = await send(server.port, '/internal/render/form-pdf', 1.5 * MiB, { chunked: true, headers: { ...who(), 'X-Internal-Key': INTERNAL_KEY } });
    expect(r.status, r.body).toBe(400);
    expect(JSON.parse(r.body).code).not.toBe('payload-too-large');
  });

  it('the phone webhook counts a chunked 30 MB body on the stream', async () => {
    const r = await send(server.port, '/api/public/phone/webhook', 30 * MiB, { chunked: true });
    expect(r.status, r.body).toBe(413);
    expect(JSON.parse(r.body).code).toBe('payload-too-large');
    expect(r.finished).toBe(false);
  });
});
