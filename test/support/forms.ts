import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { client, type TestContext, type Who } from './app';
import { seedTenant } from './fixtures';

/** Valid under the stand-in rules and a real form validator alike. */
export const VALID_DRAFT = { title: 'T', fields: [{ key: 'name', type: 'text', label: 'Name' }] };
/** Invalid under both: no title, fields not a list. */
export const INVALID_DRAFT = { fields: 'nope' };

export const BASE = '/api/form-definitions';

/**
 * A tenant subscribed to FORMS: the owner and `editor`, `other` hold read-write, `reader` read,
 * `outsider` is a member without a grant.
 */
export async function seedFormsTenant(ctx: TestContext) {
  const t = await seedTenant(ctx, { members: ['editor', 'other', 'reader', 'outsider'], subscribe: ['FORMS'] });
  const api = client(ctx);
  for (const [user, level] of [
    [t.owner, 'read-write'],
    ['editor', 'read-write'],
    ['other', 'read-write'],
    ['reader', 'read'],
  ] as const) {
    const r = await api.put(`/api/tenants/${t.id}/users/${user}/capabilities/FORMS`, t.asOwner, { level });
    expect(r.status, r.text).toBe(200);
  }
  return t;
}

export function formsApi(ctx: TestContext) {
  const api = client(ctx);
  const ok = <T extends { status: number; text: string }>(r: T, status: number) => {
    expect(r.status, r.text).toBe(status);
    return r;
  };
  return {
    ...api,
    /** A new INBOUND definition with the valid draft (or `body` merged in). */
    create: async (who: Who, body: Record<string, unknown> = {}) =>
      ok(await api.post(BASE, who, { name: 'Intake', kind: 'INBOUND', draftSchema: VALID_DRAFT, ...body }), 201).json,
    read: async (who: Who, id: string) => ok(await api.get(`${BASE}/${id}`, who), 200).json,
    save: (who: Who, id: string, draftSchema: unknown, version: number) => api.put(`${BASE}/${id}/draft`, who, { draftSchema, version }),
    checkIn: (who: Who, id: string) => api.post(`${BASE}/${id}/versions`, who),
    step: (who: Who, id: string, path: string, body?: unknown) => api.post(`${BASE}/${id}/${path}`, who, body),
    audit: async (who: Who, id: string) =>
      (ok(await api.get(`${BASE}/${id}/audit?limit=200`, who), 200).json.items as Array<{ action: string; detail: Record<string, unknown>; actor: string }>).reverse(),
  };
}

/** Ages the edit lock of a definition by `minutes` (the lock TTL is judged against the app clock). */
export async function ageLock(ctx: TestContext, id: string, minutes: number) {
  await ctx.db.db.execute(sql`update form_definitions set locked_at = now() - make_interval(mins => ${minutes}) where id = ${id}`);
}
