import { beforeAll, describe, expect, it } from 'vitest';
import { client, INTERNAL_KEY, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';
import { operations, type Doc, type Operation } from '../../support/openapi-inputs';
import { leaves, setAt, validValue, type Leaf } from '../../support/openapi-values';

/**
 * Issue 11 §2: every operation of /openapi.json gets, in every string, integer and free-form JSON
 * field of its body and in every path and query parameter, the values PostgreSQL cannot store or
 * that overflow a column (NUL, a lone surrogate, 2^31, 2^53, a huge string, 10,000 nesting levels).
 * The other fields carry valid values, so the bad one is what the route meets. Only 4xx problems.
 */
/** 10,000 nesting levels, spliced in as text (JSON.stringify would run out of stack). */
const DEEP = '\u0001deep';
const DEEP_TEXT = `${'{"k":'.repeat(10_000)}1${'}'.repeat(10_000)}`;
const serialise = (v: unknown) => JSON.stringify(v).replace(JSON.stringify(DEEP), DEEP_TEXT);
const BAD: Record<Leaf['kind'], unknown[]> = {
  string: ['a\u0000b', 'x\ud800', '\udc00', 'x'.repeat(200_000)],
  integer: [2 ** 31, 2 ** 53, -(2 ** 31) - 1],
  json: [DEEP, { ['\ud800']: 1 }, { k: 'nul\u0000' }, { big: 'x'.repeat(600_000) }, Array.from({ length: 50_000 }, (_, i) => i)],
};
/** Raw URL forms: NUL, a lone surrogate in (invalid) UTF-8, int32 and 2^53 overflows, a long value. */
const BAD_URL = ['%00', '%ED%A0%80', 'a%00b', String(2 ** 31), String(2 ** 53), 'x'.repeat(5_000)];

interface Call { method: string; path: string; body?: string; what: string; op: Operation['op'] }

/** A 4xx is a problem, or the page the operation documents for that status (the hosted form's one 404 page). */
const documentedPage = (op: Operation['op'], status: number, type: string | null) =>
  Object.keys(op.responses?.[status]?.content ?? {}).some((t) => t !== 'application/problem+json' && !!type?.startsWith(t));

describe('no bad value in any field answers 5xx', () => {
  const ctx = useTestApp();
  let t: Awaited<ReturnType<typeof seedTenant>>;
  let doc: Doc;

  beforeAll(async () => {
    const codes = (await ctx.db.sql<{ code: string }[]>`select code from capabilities`).map((r) => r.code);
    t = await seedTenant(ctx, { subscribe: codes });
    const api = client(ctx);
    for (const code of codes) await api.put(`/api/tenants/${t.id}/users/${t.owner}/capabilities/${code}`, t.asOwner, { level: 'read-write' });
    // The examples of the document name this calendar and location: routes below them get past their 404.
    expect((await api.post('/api/business-calendars', t.asOwner, { calendarCode: 'EU-SUPPORT', name: 'EU' })).status).toBe(201);
    const loc = await api.post('/api/business-calendars/EU-SUPPORT/locations', t.asOwner, { locationCode: 'BER', name: 'Berlin', timezone: 'Europe/Berlin' });
    expect(loc.status, loc.text).toBe(201);
    doc = (await api.get('/openapi.json', null)).json;
  });

  function concretePath(o: Operation, override?: { name: string; raw: string }) {
    return o.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
      if (override?.name === name) return override.raw;
      if (name === 't') return t.id;
      if (name === 'u') return t.owner;
      const p = o.params.find((x) => x.in === 'path' && x.name === name);
      return encodeURIComponent(String(validValue(doc, p?.schema)));
    });
  }

  function query(o: Operation, override?: { name: string; raw: string }) {
    const parts = o.params
      .filter((p) => p.in === 'query' && (p.required || p.name === override?.name))
      .map((p) => `${p.name}=${p.name === override?.name ? override.raw : encodeURIComponent(String(validValue(doc, p.schema)))}`);
    return parts.length ? `?${parts.join('&')}` : '';
  }

  function calls(o: Operation): Call[] {
    const M = o.method.toUpperCase();
    const json = o.body?.type.includes('json');
    const base = json ? validValue(doc, o.body!.schema) : undefined;
    const body = json ? JSON.stringify(base) : undefined;
    const out: Call[] = [];
    for (const p of o.params.filter((x) => x.in === 'path' || x.in === 'query')) {
      for (const raw of BAD_URL) {
        const over = { name: p.name, raw };
        out.push({ method: M, path: concretePath(o, p.in === 'path' ? over : undefined) + query(o, p.in === 'query' ? over : undefined), body, what: `${p.in}.${p.name}=${raw.slice(0, 20)}`, op: o.op });
      }
    }
    if (json) {
      for (const leaf of leaves(doc, o.body!.schema)) {
        for (const bad of BAD[leaf.kind]) {
          out.push({ method: M, path: concretePath(o) + query(o), body: serialise(setAt(base, leaf.path, bad)), what: `body.${leaf.path.join('.')} (${leaf.kind})`, op: o.op });
        }
      }
    }
    return out;
  }

  it('answers every bad value of every field of every operation with a 4xx problem', async () => {
    const all = operations(doc).flatMap(calls);
    const failures: string[] = [];
    let next = 0;
    const worker = async () => {
      while (next < all.length) {
        const c = all[next++]!;
        const res = await ctx.app.request(c.path, {
          method: c.method,
          body: c.body,
          headers: { 'Content-Type': 'application/json', 'X-User-Id': t.owner, 'X-Tenant-Id': t.id, 'X-Internal-Key': INTERNAL_KEY },
        });
        const text = await res.text();
        if (res.status >= 500) failures.push(`${c.method} ${c.path.slice(0, 120)} ${c.what}: ${res.status} ${text.slice(0, 200)}`);
        else if (res.status >= 400 && !res.headers.get('content-type')?.includes('application/problem+json') && !documentedPage(c.op, res.status, res.headers.get('content-type'))) {
          failures.push(`${c.method} ${c.path.slice(0, 120)} ${c.what}: ${res.status} is not a problem`);
        }
      }
    };
    await Promise.all(Array.from({ length: 6 }, worker));
    expect(failures).toEqual([]);
    expect(all.length).toBeGreaterThan(1_000);
  }, 300_000);
});
