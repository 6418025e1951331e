import { createRoute, z } from '@hono/zod-openapi';
import type { ReadinessCheck } from '../deps';
import { createRouter, jsonContent } from '../openapi';

const tags = ['Health'];
const CHECK_TIMEOUT_MS = 2_000;

const Readiness = z
  .object({
    status: z.enum(['ready', 'degraded']).openapi({ description: '`degraded`: a shared dependency does not answer; the node still serves, and what needs that part answers 503 with Retry-After' }),
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

  // Readiness follows this node, not the parts every node shares (docs/operations.md "Faults"):
  // PostgreSQL, Temporal or S3 down makes every node equally unable, and taking them all out of
  // the load balancer would turn a partial outage into a total one (writes still land in the
  // outbox while Temporal is down) and the API's 503s with Retry-After into the balancer's own.
  app.openapi(
    createRoute({
      method: 'get',
      path: '/health/ready',
      tags,
      summary: 'The node serves: 200 while it runs; `degraded` names the shared dependencies that do not answer (PostgreSQL, Temporal, S3)',
      responses: { 200: jsonContent(Readiness) },
    }),
    async (c) => {
      const entries = Object.entries(c.get('deps').readiness);
      const results = await Promise.all(entries.map(async ([name, check]) => [name, await probe(check)] as const));
      const checks = Object.fromEntries(results);
      const failing = results.filter(([, r]) => !r.ok).map(([n]) => n);
      return c.json({ status: failing.length ? ('degraded' as const) : ('ready' as const), checks, failing }, 200);
    },
  );

  return app;
}
