import { expect } from 'vitest';
import { client, OPERATOR, type TestContext, type Who } from './app';
import { PII_SENTINELS } from './pii-sentinels';

let counter = 0;
export const uniqueId = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

/** Creates a tenant owned by `owner`, with members, subscriptions and grants, through the API. */
export async function seedTenant(
  ctx: TestContext,
  opts: {
    id?: string;
    owner?: string;
    members?: string[];
    subscribe?: string[];
    grants?: Array<{ user: string; code: string; level: 'read' | 'read-write' }>;
  } = {},
) {
  const api = client(ctx);
  const id = opts.id ?? uniqueId('t');
  const owner = opts.owner ?? `${id}-owner`;
  const created = await api.post('/api/tenants', { user: owner, name: `Owner ${owner}`, email: PII_SENTINELS.email }, { id, name: `Tenant ${id}` });
  expect(created.status, created.text).toBe(201);
  const asOwner: Who = { user: owner, tenant: id };
  for (const m of opts.members ?? []) {
    const r = await api.put(`/api/tenants/${id}/members/${m}`, asOwner);
    expect(r.status, r.text).toBe(201);
  }
  for (const code of opts.subscribe ?? []) {
    const r = await api.put(`/api/tenants/${id}/capabilities/${code}`, asOwner);
    expect(r.status, r.text).toBe(200);
  }
  for (const g of opts.grants ?? []) {
    const r = await api.put(`/api/tenants/${id}/users/${g.user}/capabilities/${g.code}`, asOwner, { level: g.level });
    expect(r.status, r.text).toBe(200);
  }
  return { id, owner, asOwner, as: (user: string): Who => ({ user, tenant: id }), operator: { user: OPERATOR, tenant: id } };
}

export function expectProblem(res: { status: number; headers: Headers; json: any; text: string }, status: number, code?: string) {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/problem+json');
  expect(res.json).toMatchObject({ status, type: expect.any(String), title: expect.any(String), detail: expect.any(String) });
  if (code) expect(res.json.code).toBe(code);
}
