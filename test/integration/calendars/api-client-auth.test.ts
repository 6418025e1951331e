import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { basic, createApiClient, seedCalendarTenant, type ApiClientCredentials } from '../../support/calendars';
import { expectProblem } from '../../support/fixtures';

const logLines: string[] = [];

describe('API clients and HTTP Basic on the calendar routes', () => {
  const ctx = useTestApp({ deps: { logger: pino({ level: 'trace' }, { write: (line: string) => logLines.push(line) }) } });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let other: Awaited<ReturnType<typeof seedCalendarTenant>>;
  let erp: ApiClientCredentials;
  const seenSecrets: string[] = [];

  beforeAll(async () => {
    t = await seedCalendarTenant(ctx);
    other = await seedCalendarTenant(ctx);
    await api.post('/api/business-calendars/OPS', t.asOwner, { name: 'Operations' });
  });

  const asClient = (c: ApiClientCredentials, tenant = t.id) => basic(c, tenant);

  it('an owner creates an API client: 201 with clientId, name and a secret shown once; it starts as an api-client member without grants', async () => {
    const r = await api.post(`/api/tenants/${t.id}/api-clients`, t.asOwner, { name: 'ERP' });
    expect(r.status, r.text).toBe(201);
    expect(r.json).toMatchObject({ clientId: expect.stringMatching(/^ac_[0-9a-f]{20}$/), tenantId: t.id, name: 'ERP', createdBy: t.owner, revokedAt: null });
    expect(r.json.secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    erp = { clientId: r.json.clientId, secret: r.json.secret };
    seenSecrets.push(erp.secret);
    const members = (await api.get(`/api/tenants/${t.id}/members`, t.asOwner)).json;
    expect(members.find((m: { userId: string }) => m.userId === erp.clientId)).toMatchObject({ role: 'api-client', isOwner: false });
    expect((await api.get(`/api/tenants/${t.id}/users/${erp.clientId}/capabilities`, t.asOwner)).json).toEqual([]);
  });

  it('only owners and operators manage API clients (403 owner-required); bad names are 400', async () => {
    expectProblem(await api.post(`/api/tenants/${t.id}/api-clients`, t.as('reader'), { name: 'x' }), 403, 'owner-required');
    expectProblem(await api.get(`/api/tenants/${t.id}/api-clients`, t.as('reader')), 403, 'owner-required');
    expectProblem(await api.post(`/api/tenants/${t.id}/api-clients`, t.asOwner, { name: '  ' }), 400, 'validation-failed');
  });

  it('GET api-clients lists clients without secrets or hashes', async () => {
    const r = await api.get(`/api/tenants/${t.id}/api-clients`, t.asOwner);
    expect(r.status).toBe(200);
    expect(r.json).toEqual([expect.objectContaining({ clientId: erp.clientId, name: 'ERP', revokedAt: null })]);
    expect(Object.keys(r.json[0]).sort()).toEqual(['clientId', 'createdAt', 'createdBy', 'name', 'revokedAt', 'revokedBy', 'tenantId']);
    expect(r.text).not.toContain(erp.secret);
    expect(r.text).not.toContain('scrypt');
  });

  it('Basic with a good secret but no grant is authenticated and then refused by the guard (403 capability-not-granted)', async () => {
    expectProblem(await api.get('/api/business-calendars', null, asClient(erp)), 403, 'capability-not-granted');
  });

  it('grants go through the ordinary grant route with the clientId as user id; read then read-write', async () => {
    const g = await api.put(`/api/tenants/${t.id}/users/${erp.clientId}/capabilities/CALENDAR`, t.asOwner, { level: 'read' });
    expect(g.status, g.text).toBe(200);
    const list = await api.get('/api/business-calendars', null, asClient(erp));
    expect(list.status, list.text).toBe(200);
    expect(list.json.map((c: { calendarCode: string }) => c.calendarCode)).toEqual(['OPS']);
    expectProblem(await api.post('/api/business-calendars/ERP1', null, { name: 'x' }, asClient(erp)), 403, 'capability-write-required');
    await api.put(`/api/tenants/${t.id}/users/${erp.clientId}/capabilities/CALENDAR`, t.asOwner, { level: 'read-write' });
    const created = await api.post('/api/business-calendars/ERP1', null, { name: 'made by the ERP' }, asClient(erp));
    expect(created.status, created.text).toBe(201);
    expectProblem(await api.get('/api/process-calendars', null, asClient(erp)), 403, 'capability-not-granted');
    await api.put(`/api/tenants/${t.id}/users/${erp.clientId}/capabilities/SLA`, t.asOwner, { level: 'read' });
    const sla = await api.post('/api/sla/calculate', null, { calendarCode: 'OPS', receivedDateTime: '2025-04-07T09:00:00Z', sla: { businessMinutes: 0 } }, asClient(erp));
    expectProblem(sla, 422, 'calendar-unreachable'); // authenticated and guarded through; OPS has no hours
  });

  it('a wrong secret, an unknown client id and malformed Basic are 401 with a Basic WWW-Authenticate challenge', async () => {
    const cases: Record<string, string>[] = [
      asClient({ clientId: erp.clientId, secret: `${erp.secret}x` }),
      asClient({ clientId: 'ac_00000000000000000000', secret: erp.secret }),
      asClient({ clientId: 'someone', secret: erp.secret }),
      { Authorization: 'Basic !!!not-base64', 'X-Tenant-Id': t.id },
      { Authorization: `Basic ${Buffer.from('no-colon').toString('base64')}`, 'X-Tenant-Id': t.id },
      { Authorization: 'Basic', 'X-Tenant-Id': t.id },
    ];
    for (const headers of cases) {
      const r = await api.get('/api/business-calendars', null, headers);
      expectProblem(r, 401);
      expect(['invalid-credentials']).toContain(r.json.code);
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm="[^"]+"/);
    }
  });

  it('a client of another tenant is refused like a wrong secret (401), even where it was added as a member', async () => {
    expectProblem(await api.get('/api/business-calendars', null, asClient(erp, other.id)), 401, 'invalid-credentials');
    await api.put(`/api/tenants/${other.id}/members/${erp.clientId}`, other.asOwner);
    await api.put(`/api/tenants/${other.id}/users/${erp.clientId}/capabilities/CALENDAR`, other.asOwner, { level: 'read' });
    expectProblem(await api.get('/api/business-calendars', null, asClient(erp, other.id)), 401, 'invalid-credentials');
  });

  it('Basic without X-Tenant-Id is 400 missing-header', async () => {
    const { Authorization } = asClient(erp);
    expectProblem(await api.get('/api/business-calendars', null, { Authorization: Authorization! }), 400, 'missing-header');
  });

  it('neither Basic nor gateway headers: 401 authentication-required with a challenge; a bearer token alone is not enough', async () => {
    const variants: Record<string, string>[] = [{ 'X-Tenant-Id': t.id }, { 'X-Tenant-Id': t.id, Authorization: 'Bearer abc.def.ghi' }];
    for (const headers of variants) {
      const r = await api.get('/api/business-calendars', null, headers);
      expectProblem(r, 401, 'authentication-required');
      expect(r.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
  });

  it('Basic and X-User-Id together are 400 conflicting-credentials; gateway headers alone work (with a gateway bearer token too)', async () => {
    expectProblem(await api.get('/api/business-calendars', { user: t.owner, tenant: t.id }, { Authorization: asClient(erp).Authorization! }), 400, 'conflicting-credentials');
    expect((await api.get('/api/business-calendars', t.asOwner)).status).toBe(200);
    expect((await api.get('/api/business-calendars', t.asOwner, { Authorization: 'Bearer abc' })).status).toBe(200);
  });

  it('Basic credentials open only the calendar and SLA routes: elsewhere the gateway identity stays required', async () => {
    expectProblem(await api.get('/api/my-capabilities', null, asClient(erp)), 400, 'missing-header');
    expectProblem(await api.get('/api/my-access', null, asClient(erp)), 400, 'missing-header');
  });

  it('an API client cannot be made an owner or given a person’s role (422 api-client-role-fixed)', async () => {
    expectProblem(await api.put(`/api/tenants/${t.id}/owners/${erp.clientId}`, t.asOwner), 422, 'api-client-role-fixed');
    expectProblem(await api.put(`/api/tenants/${t.id}/members/${erp.clientId}/role`, t.asOwner, { role: 'tenant-admin' }), 422, 'api-client-role-fixed');
  });

  it('revoking stops the credentials at once (even right after a cached success), drops grants and membership, and shows revokedAt', async () => {
    const second = await createApiClient(ctx, t, [{ code: 'CALENDAR', level: 'read' }], 'second');
    seenSecrets.push(second.secret);
    expect((await api.get('/api/business-calendars', null, asClient(second))).status).toBe(200);
    expect((await api.get('/api/business-calendars', null, asClient(second))).status).toBe(200);
    expect((await api.del(`/api/tenants/${t.id}/api-clients/${second.clientId}`, t.asOwner)).status).toBe(204);
    const after = await api.get('/api/business-calendars', null, asClient(second));
    expectProblem(after, 401, 'invalid-credentials');
    expect(after.headers.get('www-authenticate')).toMatch(/^Basic/);
    const listed = (await api.get(`/api/tenants/${t.id}/api-clients`, t.asOwner)).json.find((c: { clientId: string }) => c.clientId === second.clientId);
    expect(listed).toMatchObject({ revokedBy: t.owner, revokedAt: expect.any(String) });
    const grants = await ctx.db.sql`select count(*)::int as n from capability_grants where user_id = ${second.clientId}`;
    const members = await ctx.db.sql`select count(*)::int as n from tenant_members where user_id = ${second.clientId}`;
    expect([grants[0]!.n, members[0]!.n]).toEqual([0, 0]);
    expectProblem(await api.del(`/api/tenants/${t.id}/api-clients/${second.clientId}`, t.asOwner), 404, 'api-client-not-found');
    expectProblem(await api.del(`/api/tenants/${other.id}/api-clients/${erp.clientId}`, other.asOwner), 404, 'api-client-not-found');
  });

  it('the secret is stored only as a salted scrypt hash: never in a column, an audit row, a response or a log line', async () => {
    const rows = await ctx.db.sql`select row_to_json(a)::text as j, secret_hash from api_clients a`;
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const dump = [
      ...rows.map((r) => r.j as string),
      ...(await ctx.db.sql`select row_to_json(x)::text as j from access_audit x`).map((r) => r.j as string),
      ...(await ctx.db.sql`select row_to_json(x)::text as j from tenant_members x`).map((r) => r.j as string),
    ].join('\n');
    for (const secret of seenSecrets) {
      expect(dump).not.toContain(secret);
      expect(logLines.join('\n')).not.toContain(secret);
    }
    for (const r of rows) expect(r.secret_hash).toMatch(/^scrypt\$14\$8\$1\$[A-Za-z0-9_-]{22}\$[A-Za-z0-9_-]{43}$/);
    expect(new Set(rows.map((r) => String(r.secret_hash).split('$')[4])).size).toBe(rows.length); // a salt per secret
    expect(logLines.length).toBeGreaterThan(10);
    expect(logLines.join('\n')).not.toMatch(/Basic [A-Za-z0-9+/=]{20,}/);
  });
});
