import { describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { useTestApp } from '../../support/app';

describe('health', () => {
  const ctx = useTestApp();

  it('live answers 200 while the process is up', async () => {
    const res = await ctx.app.request('/health/live');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'live' });
  });

  it('ready answers 200 when every part answers', async () => {
    const app = createApp({
      ...ctx.deps,
      readiness: { postgres: async () => void (await ctx.db.sql`select 1`), temporal: async () => {}, s3: async () => {} },
    });
    const res = await app.request('/health/ready');
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ status: 'ready', failing: [] });
  });

  // A shared dependency down is every node's outage alike: the node stays in the balancer and
  // answers (docs/operations.md "Faults"); the body names the part for dashboards and operators.
  it('ready answers 200 degraded naming the failing part, without leaking its URL', async () => {
    const app = createApp({
      ...ctx.deps,
      readiness: {
        postgres: async () => {},
        temporal: async () => {
          throw new Error('connect ECONNREFUSED to grpc://secret-host:7233');
        },
        s3: () => new Promise(() => {}), // never answers: times out
      },
    });
    const res = await app.request('/health/ready');
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; failing: string[]; checks: Record<string, { ok: boolean; error?: string }> };
    expect(body.status).toBe('degraded');
    expect(body.failing.sort()).toEqual(['s3', 'temporal']);
    expect(body.checks.postgres).toEqual({ ok: true });
    expect(body.checks.temporal!.error).not.toContain('secret-host');
    expect(body.checks.s3!.error).toMatch(/no answer/);
  });
});
