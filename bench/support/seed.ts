// Seeding for the benches. Straight rows (seedTenant) where the bench measures something else
// than access administration; through the API (seedReaderThroughApi) where the bench's reads
// must see exactly what the API wrote (the access cache, its invalidation).
import { createDatabase } from '../../db/client';

export interface TenantSeed {
  tenant: string;
  /** Capabilities subscribed ACTIVE. */
  capabilities: string[];
  /** Members and their grants, by capability code. */
  members?: { user: string; grants: Record<string, 'read' | 'read-write'> }[];
}

/** A tenant, its active subscriptions and its members' grants, written as rows. */
export async function seedTenant(url: string, seed: TenantSeed): Promise<void> {
  const { sql, close } = createDatabase(url, { max: 1 });
  try {
    await sql`insert into tenants (id, name, created_by) values (${seed.tenant}, 'Bench', 'bench')`;
    for (const code of seed.capabilities) {
      await sql`insert into capability_subscriptions (tenant_id, capability_code, status, updated_by) values (${seed.tenant}, ${code}, 'ACTIVE', 'bench')`;
    }
    for (const m of seed.members ?? []) {
      await sql`insert into tenant_members (tenant_id, user_id, added_by) values (${seed.tenant}, ${m.user}, 'bench')`;
      for (const [code, level] of Object.entries(m.grants)) {
        await sql`insert into capability_grants (tenant_id, user_id, capability_code, level, granted_by) values (${seed.tenant}, ${m.user}, ${code}, ${level}, 'bench')`;
      }
    }
  } finally {
    await close();
  }
}

/** Headers of the guarded read the access benches load: the reader of tenant `bench`. */
export const READER_HEADERS = { 'X-User-Id': 'reader', 'X-Tenant-Id': 'bench' } as const;

/**
 * Through the API at `base`: tenant `bench` (owner `owner`), member `reader` with read grants on
 * PHONE and SLA; then checks `GET /api/my-capabilities` answers them on every base in `check`.
 */
export async function seedReaderThroughApi(base: string, check: string[] = [base]): Promise<void> {
  const h = (user: string, tenant?: string) => ({ 'Content-Type': 'application/json', 'X-User-Id': user, ...(tenant ? { 'X-Tenant-Id': tenant } : {}) });
  const call = async (path: string, method: string, headers: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (res.status >= 300) throw new Error(`seed ${method} ${path}: ${res.status} ${await res.text()}`);
  };
  await call('/api/tenants', 'POST', h('owner'), { id: 'bench', name: 'Bench' });
  await call('/api/tenants/bench/members/reader', 'PUT', h('owner', 'bench'));
  for (const code of ['PHONE', 'SLA']) {
    await call(`/api/tenants/bench/capabilities/${code}`, 'PUT', h('owner', 'bench'));
    await call(`/api/tenants/bench/users/reader/capabilities/${code}`, 'PUT', h('owner', 'bench'), { level: 'read' });
  }
  for (const b of check) {
    const answer = await (await fetch(`${b}/api/my-capabilities`, { headers: READER_HEADERS })).json();
    if (JSON.stringify(answer) !== JSON.stringify({ PHONE: 'read', SLA: 'read' })) throw new Error(`bad seed on ${b}: ${JSON.stringify(answer)}`);
  }
}
