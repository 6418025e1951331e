import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

/**
 * Bad input gets a clear 4xx problem and never a 500: every route of the OpenAPI document is
 * called with malformed bodies, a body of another media type, wrong types, odd path values and
 * missing headers.
 */
describe('no route answers 500 to bad input', () => {
  const ctx = useTestApp();
  let t: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    t = await seedTenant(ctx, { subscribe: ['PHONE', 'SLA', 'CALENDAR', 'FORMS', 'SIGNATURES'] });
    for (const code of ['PHONE', 'SLA', 'CALENDAR', 'FORMS', 'SIGNATURES']) {
      await client(ctx).put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/${code}`, t.asOwner, { level: 'read-write' });
    }
  });

  const bodies = ['{"unterminated": ', '[]', 'null', '"text"', '42', JSON.stringify({ id: 123, name: ['x'], level: 'x', status: {} })];
  const oddSegments = ['%2e%2e', 'x'.repeat(300), '0', 'not-a-uuid', '%00'];

  it('every documented route answers bad bodies, odd path values and missing headers with a 4xx problem', async () => {
    const doc = (await client(ctx).get('/openapi.json', null)).json;
    let calls = 0;
    for (const [path, ops] of Object.entries<Record<string, { responses?: Record<string, { content?: Record<string, unknown> }> }>>(doc.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const M = method.toUpperCase();
        // Hosted pages document their refusals as HTML (a browser gets a page, never a problem document).
        const hostedPage = Object.entries(op.responses ?? {}).some(([status, r]) => Number(status) >= 400 && r.content && 'text/html' in r.content);
        const concrete = path.replace('{t}', t.id).replace(/\{[^}]+\}/g, (_, i) => oddSegments[i % oddSegments.length]!);
        const variants: Array<{ headers?: Record<string, string>; who: typeof t.asOwner | null; body?: string }> = [
          { who: null },
          { who: { user: t.owner, tenant: 'Bad Tenant' } },
          ...(M === 'GET' || M === 'HEAD' ? [] : bodies).map((body) => ({ who: t.asOwner, body })),
          ...(M === 'GET' || M === 'HEAD' ? [] : [{ who: t.asOwner, body: '{}', headers: { 'Content-Type': 'text/plain' } }]),
          ...oddSegments.map(() => ({ who: t.asOwner })),
        ];
        for (const [i, v] of variants.entries()) {
          const p = i >= variants.length - oddSegments.length ? path.replace('{t}', t.id).replace(/\{[^}]+\}/g, oddSegments[i % oddSegments.length]!) : concrete;
          const res = await client(ctx).call(M, p, v.who, v.body, v.headers ?? (v.body ? { 'Content-Type': 'application/json' } : {}));
          calls++;
          expect(res.status, `${M} ${p} body=${v.body}: ${res.text.slice(0, 300)}`).toBeLessThan(500);
          if (res.status >= 400 && !path.startsWith('/api/public/') && !hostedPage) {
            expect(res.headers.get('content-type'), `${M} ${p}`).toContain('application/problem+json');
          }
        }
      }
    }
    expect(calls).toBeGreaterThan(300);
  });
});
