import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessCache } from '../../../api/access-cache';
import { createApp } from '../../../api/app';
import type { AppDeps } from '../../../api/deps';
import type { CallerSnapshot } from '../../../db/queries/caller-snapshot';
import { mailerFor } from '../../../integrations/mail/mailer';
import { testSettings } from '../../support/app';

/** The app on a cache that records its invalidations; no request here reaches the database. */
function appWithCache(lines: object[] = []) {
  const cache = new AccessCache(60_000);
  const calls: string[] = [];
  const invalidate = cache.invalidate.bind(cache);
  cache.invalidate = (tenantId) => {
    calls.push(`here ${tenantId}`);
    return invalidate(tenantId);
  };
  cache.invalidateEverywhere = async (tenantId) => {
    calls.push(`everywhere ${tenantId}`);
    invalidate(tenantId);
  };
  const settings = testSettings({ 'http.max-body-bytes': 1024 });
  const deps = { db: {} as AppDeps['db'], settings, logger: pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) }), mailer: mailerFor(settings), readiness: {}, accessCache: cache } as AppDeps;
  return { app: createApp(deps), cache, calls };
}

const snapshot: CallerSnapshot = { tenantExists: true, isMember: true, isOwner: false, isOperator: false, subscriptions: { PHONE: 'ACTIVE' }, grants: { PHONE: 'read' } };
const as = { 'X-User-Id': 'reader', 'X-Tenant-Id': 'acme' };
const tooLarge = (headers: Record<string, string>) => ({ method: 'POST', headers: { ...headers, 'Content-Type': 'application/json', 'Content-Length': '2048' }, body: 'x'.repeat(2048) });

describe('the access-cache invalidation layer with the body bound it wraps, run by the request context', () => {
  it('lets a read through from the cache without invalidating anything', async () => {
    const { app, cache, calls } = appWithCache();
    cache.set('acme', 'reader', snapshot);
    const res = await app.request('/api/my-capabilities', { headers: as });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ PHONE: 'read' });
    expect(calls).toEqual([]);
  });

  it('answers an access write refused by the body bound as before, and drops the snapshots here only', async () => {
    const { app, cache, calls } = appWithCache();
    cache.set('acme', 'reader', snapshot);
    const res = await app.request('/api/tenants/acme/members', tooLarge(as));
    expect(res.status).toBe(413);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(((await res.json()) as { code: string }).code).toBe('payload-too-large');
    // Refused before any identity: no caller, so every snapshot of this node goes.
    expect(calls).toEqual(['here *']);
    expect(cache.get('acme', 'reader')).toBeUndefined();
  });

  it('bounds a body off the access routes without touching the cache', async () => {
    const { app, calls } = appWithCache();
    const res = await app.request('/api/phone/settings', tooLarge(as));
    expect(res.status).toBe(413);
    expect(calls).toEqual([]);
  });

  it('gives a write it refuses the request id and log line of any answer, and a public one no-store', async () => {
    const lines: object[] = [];
    const { app } = appWithCache(lines);
    const res = await app.request('/api/tenants/acme/members', tooLarge({ ...as, 'X-Request-Id': 'too-large-1' }));
    expect(res.status).toBe(413);
    expect(res.headers.get('x-request-id')).toBe('too-large-1');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', requestId: 'too-large-1', method: 'POST', status: 413 }));

    // Off the access routes the body bound throws straight to the layer that runs it.
    const publicRes = await app.request('/api/public/forms/any', tooLarge({ 'X-Request-Id': 'too-large-2' }));
    expect(publicRes.status).toBe(413);
    expect(publicRes.headers.get('x-request-id')).toBe('too-large-2');
    expect(publicRes.headers.get('cache-control')).toBe('no-store');
    expect(lines).toContainEqual(expect.objectContaining({ msg: 'request', requestId: 'too-large-2', method: 'POST', status: 413 }));
  });
});
