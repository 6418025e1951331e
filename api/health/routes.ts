import { createRoute, z } from '@hono/zod-openapi';
import type { ReadinessCheck } from '../deps';
import { createRouter, jsonContent } from '../openapi';

const tags = ['Health'];
const CHECK_TIMEOUT_MS = 2_000;

const Readiness = z
  .object({
    status: z.enum(['ready', 'unavailable']),
    checks: z.record(z.string(), z.object({ ok: z.boolean(), error: z.string().optional() })),
    failing: z.array(z.string()),
  })
  .openapi('Readiness');

async function probe(check: ReadinessCheck): Promise<{ ok: boolean; error?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CHECK_TIMEOUT_MS} ms`)), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return { ok: true };
  } catch (err) {
    // The message names the failure class only; connection strings never reach the body.
    const msg = err instanceof Error ? err.message : String(err);
    return { ok: false, error: msg.replace(/[a-z]+:\/\/\S+/gi, '<url>').slice(0, 200) };
  } finally {
    clearTimeout(timer);
  }
}

export function healthRoutes() {
  const app = createRouter();

  app.openapi(
    createRoute({
      method: 'get',
      path: '/health/live',
      tags,
      summary: 'The process is up',
      responses: { 200: jsonContent(z.object({ status: z.literal('live') })) },
    }),
    (c) => c.json({ status: 'live' as const }, 200),
  );

  app.openapi(
    createRoute({
      method: 'get',
      path: '/health/ready',
      tags,
      summary: '200 only when PostgreSQL, Temporal and S3 answer; 503 names the failing parts',
      responses: { 200: jsonContent(Readiness), 503: jsonContent(Readiness, 'A dependency does not answer') },
    }),
    async (c) => {
      const entries = Object.entries(c.get('deps').readiness);
      const results = await Promise.all(entries.map(async ([name, check]) => [name, await probe(check)] as const));
      const checks = Object.fromEntries(results);
      const failing = results.filter(([, r]) => !r.ok).map(([n]) => n);
      const body = { status: failing.length ? ('unavailable' as const) : ('ready' as const), checks, failing };
      return failing.length ? c.json(body, 503) : c.json(body, 200);
    },
  );

  return app;
}
