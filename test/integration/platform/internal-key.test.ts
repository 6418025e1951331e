import { Hono } from 'hono';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { AppDeps } from '../../../api/deps';
import type { AppEnv } from '../../../api/env';
import { onError } from '../../../api/middleware/errors';
import { internalKey, sameSecret } from '../../../api/middleware/internal-key';
import { requestContext } from '../../../api/middleware/request-context';
import { testSettings } from '../../support/app';

function appWithKey(key: string | undefined) {
  const deps = { settings: testSettings({ 'internal.key': key }), logger: pino({ level: 'silent' }) } as AppDeps;
  const app = new Hono<AppEnv>();
  app.use('*', requestContext(deps));
  app.onError(onError);
  app.get('/api/internal/ping', internalKey, (c) => c.text('pong'));
  return app;
}

describe('internal key (X-Internal-Key)', () => {
  it('lets the right key through', async () => {
    const res = await appWithKey('s3cr3t-key').request('/api/internal/ping', { headers: { 'X-Internal-Key': 's3cr3t-key' } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('pong');
  });

  it('answers 401 internal-key-invalid for a missing or wrong key', async () => {
    const app = appWithKey('s3cr3t-key');
    for (const headers of [{}, { 'X-Internal-Key': 'wrong' }, { 'X-Internal-Key': 'S3CR3T-KEY' }] as Record<string, string>[]) {
      const res = await app.request('/api/internal/ping', { headers });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      const body = (await res.json()) as { code: string; detail: string };
      expect(body.code).toBe('internal-key-invalid');
      expect(JSON.stringify(body)).not.toContain('s3cr3t-key');
    }
  });

  it('fails closed: with a blank setting every call is refused, whatever key is sent', async () => {
    for (const key of [undefined, '   ']) {
      const res = await appWithKey(key).request('/api/internal/ping', { headers: { 'X-Internal-Key': '' } });
      expect(res.status).toBe(403);
      expect(((await res.json()) as { code: string }).code).toBe('internal-api-disabled');
    }
  });

  it('compares secrets of different lengths without throwing', () => {
    expect(sameSecret('a', 'a')).toBe(true);
    expect(sameSecret('a', 'ab')).toBe(false);
    expect(sameSecret('', 'x')).toBe(false);
  });
});
