import { Hono } from 'hono';
import { beforeAll, describe, expect, it } from 'vitest';
import type { AppEnv } from '../../../api/env';
import { capabilityGuard } from '../../../api/middleware/capability-guard';
import { onError } from '../../../api/middleware/errors';
import { tenantIdentity, userIdentity } from '../../../api/middleware/identity';
import { requestContext } from '../../../api/middleware/request-context';
import { client, useTestApp } from '../../support/app';
import { seedTenant } from '../../support/fixtures';

describe('capability guard (layer 1 subscription, layer 2 grant)', () => {
  const ctx = useTestApp();
  const guarded = new Hono<AppEnv>();
  let tenant: Awaited<ReturnType<typeof seedTenant>>;

  beforeAll(async () => {
    guarded.use('*', requestContext(ctx.deps));
    guarded.onError(onError);
    guarded.get('/r', userIdentity, tenantIdentity, capabilityGuard('PHONE', 'read'), (c) => c.text('read ok'));
    guarded.post('/w', userIdentity, tenantIdentity, capabilityGuard('PHONE', 'write'), (c) => c.text('write ok'));
    tenant = await seedTenant(ctx, {
      members: ['reader', 'writer', 'nobody'],
      subscribe: ['PHONE'],
      grants: [
        { user: 'reader', code: 'PHONE', level: 'read' },
        { user: 'writer', code: 'PHONE', level: 'read-write' },
      ],
    });
  });

  const call = async (method: 'GET' | 'POST', user: string) => {
    const path = method === 'GET' ? '/r' : '/w';
    const res = await guarded.request(path, { method, headers: { 'X-User-Id': user, 'X-Tenant-Id': tenant.id } });
    return { status: res.status, body: await res.text() };
  };

  it('lets a read grant read and a read-write grant read and write', async () => {
    expect(await call('GET', 'reader')).toEqual({ status: 200, body: 'read ok' });
    expect(await call('GET', 'writer')).toEqual({ status: 200, body: 'read ok' });
    expect(await call('POST', 'writer')).toEqual({ status: 200, body: 'write ok' });
  });

  it('denies a write with only a read grant: 403 capability-write-required', async () => {
    const res = await call('POST', 'reader');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('capability-write-required');
  });

  it('denies a member without a grant: 403 capability-not-granted (deny by default)', async () => {
    const res = await call('GET', 'nobody');
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body).code).toBe('capability-not-granted');
  });

  it('denies everyone once the subscription is suspended: 422 capability-not-subscribed', async () => {
    const other = await seedTenant(ctx, {
      members: ['w2'],
      subscribe: ['PHONE'],
      grants: [{ user: 'w2', code: 'PHONE', level: 'read-write' }],
    });
    const req = () => guarded.request('/r', { headers: { 'X-User-Id': 'w2', 'X-Tenant-Id': other.id } });
    expect((await req()).status).toBe(200);
    await client(ctx).del(`/api/tenants/${other.id}/capabilities/PHONE`, other.asOwner);
    const denied = await req();
    expect(denied.status).toBe(422);
    expect(((await denied.json()) as { code: string }).code).toBe('capability-not-subscribed');
  });
});
