import { describe, expect, it } from 'vitest';
import { isOpenCacheHeaders } from '../../../api/calendars/is-open-cache';

const now = Date.parse('2025-04-07T08:00:00.250Z');

describe('is-open cache headers (back-off until nextChangeAt)', () => {
  it('max-age is the whole seconds until nextChangeAt, rounded down so the cache never outlives the change', () => {
    const h = isOpenCacheHeaders(now, '2025-04-07T08:05:00.000Z', 900, false);
    expect(h['Cache-Control']).toBe('private, max-age=299');
    expect(Date.parse(h.Expires!)).toBeLessThanOrEqual(Date.parse('2025-04-07T08:05:00Z'));
    expect(h.Expires).toBe('Mon, 07 Apr 2025 08:04:59 GMT');
  });

  it('a change further away than the cap is cached for the cap; no change at all (null) too', () => {
    expect(isOpenCacheHeaders(now, '2025-04-08T08:00:00.000Z', 900, false)['Cache-Control']).toBe('private, max-age=900');
    expect(isOpenCacheHeaders(now, null, 600, false)['Cache-Control']).toBe('private, max-age=600');
  });

  it('a change less than a second away (or passed) gives max-age=0', () => {
    expect(isOpenCacheHeaders(now, '2025-04-07T08:00:01.000Z', 900, false)['Cache-Control']).toBe('private, max-age=0');
    expect(isOpenCacheHeaders(now, '2025-04-07T07:00:00.000Z', 900, false)['Cache-Control']).toBe('private, max-age=0');
  });

  it('an answer for an explicit instant, or a cap of 0, is no-cache without Expires', () => {
    for (const h of [isOpenCacheHeaders(now, '2025-04-07T09:00:00Z', 900, true), isOpenCacheHeaders(now, '2025-04-07T09:00:00Z', 0, false)]) {
      expect(h['Cache-Control']).toBe('private, no-cache');
      expect(h.Expires).toBeUndefined();
    }
  });

  it('answers vary by the credentials and tenant', () => {
    expect(isOpenCacheHeaders(now, null, 900, false).Vary).toBe('Authorization, X-Tenant-Id, X-User-Id');
  });
});
