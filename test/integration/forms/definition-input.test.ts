import { beforeAll, describe, expect, it } from 'vitest';
import { useTestApp } from '../../support/app';
import { expectProblem } from '../../support/fixtures';
import { BASE, formsApi, seedFormsTenant, VALID_DRAFT } from '../../support/forms';

/** Input at the edge: anything a column cannot store, or beyond the bounds, is a 4xx, never a 500. */
describe('form definition input', () => {
  const ctx = useTestApp();
  const api = formsApi(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let d: { id: string; version: number };

  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    d = await api.create(t.as('editor'));
  });

  const nested = (depth: number): unknown => (depth === 0 ? 'leaf' : { a: nested(depth - 1) });

  it.each([
    ['a NUL in a string value', { ...VALID_DRAFT, title: 'a\u0000b' }],
    ['a NUL in a key', { ...VALID_DRAFT, ['k\u0000']: 1 }],
    ['a lone surrogate', { ...VALID_DRAFT, title: 'x\ud800' }],
    ['nesting beyond 32 levels', nested(40)],
    ['more than 256 KiB serialised', { ...VALID_DRAFT, blob: 'x'.repeat(300 * 1024) }],
    ['null', null],
  ])('a draft with %s is 400 validation-failed', async (_, draftSchema) => {
    expectProblem(await api.save(t.as('editor'), d.id, draftSchema, d.version), 400, 'validation-failed');
    expectProblem(await api.post(BASE, t.as('editor'), { name: 'n', kind: 'INBOUND', draftSchema }), 400, 'validation-failed');
  });

  it('a body above 1 MiB is 413 payload-too-large', async () => {
    const body = JSON.stringify({ draftSchema: { ...VALID_DRAFT, blob: 'x'.repeat(1100 * 1024) }, version: d.version });
    expectProblem(await api.call('PUT', `${BASE}/${d.id}/draft`, t.as('editor'), body), 413, 'payload-too-large');
  });

  it.each([
    ['name NUL', { name: 'a\u0000', kind: 'INBOUND' }],
    ['name too long', { name: 'x'.repeat(201), kind: 'INBOUND' }],
    ['blank name', { name: '   ', kind: 'INBOUND' }],
    ['unknown kind', { name: 'n', kind: 'SIDEWAYS' }],
    ['an origin with a path', { name: 'n', kind: 'INBOUND', allowedEmbedOrigins: ['https://a.example/path'] }],
    ['a non-http origin', { name: 'n', kind: 'INBOUND', allowedEmbedOrigins: ['javascript:alert(1)'] }],
    ['an unknown field', { name: 'n', kind: 'INBOUND', status: 'PUBLISHED' }],
  ])('create with %s is 400', async (_, body) => {
    expectProblem(await api.post(BASE, t.as('editor'), body), 400, 'validation-failed');
  });

  it.each([
    ['a version beyond int32', `${BASE}/{id}/versions/2147483648`],
    ['version 0', `${BASE}/{id}/versions/0`],
    ['a non-number version', `${BASE}/{id}/versions/abc`],
    ['a code of another shape', `${BASE}/by-code/XX-1234`],
    ['a non-uuid id', `${BASE}/not-a-uuid`],
  ])('a path with %s is 400', async (_, path) => {
    expectProblem(await api.get(path.replace('{id}', d.id), t.as('editor')), 400, 'validation-failed');
  });

  it('a save version beyond int32 is 400, a clone version of 0 is 400', async () => {
    expectProblem(await api.save(t.as('editor'), d.id, VALID_DRAFT, 2 ** 31), 400, 'validation-failed');
    expectProblem(await api.step(t.as('editor'), d.id, 'clone', { version: 0 }), 400, 'validation-failed');
  });

  it('a draft of any JSON kind but null is stored and judged by the schema rules', async () => {
    for (const draftSchema of ['text', 42, [1, 2], { deep: nested(30) }]) {
      const r = await api.post(BASE, t.as('editor'), { name: 'n', kind: 'INBOUND', draftSchema });
      expect(r.status, r.text).toBe(201);
      expect(r.json.problems.length).toBeGreaterThan(0);
    }
  });
});
