import { describe, expect, it } from 'vitest';
import { classifyStatus, honoursRetryAfter, parseDuration, parseRetryAfter, retryWait } from '../../../domain/webhooks/retry-policy';
import { loadSettings } from '../../../workers/config';

describe('webhook retry policy', () => {
  it('the default schedule is Svix\'s: immediately, then 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h', () => {
    const s = loadSettings({});
    expect(s['webhooks.retry-schedule']).toEqual([5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000]);
    expect(s['webhooks.timeout-ms']).toBe(15_000);
    expect(s['webhooks.rotation-overlap-hours']).toBe(24);
    expect(s['webhooks.disable-after-days']).toBe(5);
    expect(s['webhooks.allow-http']).toBe(false);
    expect(s['webhooks.allow-private-networks']).toEqual([]);
    expect(s['dispatcher.capabilities']).toContain('WEBHOOKS');
  });

  it('reads durations and refuses a schedule it cannot read', () => {
    expect(['200ms', '5s', '5m', '2h', '1d', '1.5s'].map(parseDuration)).toEqual([200, 5_000, 300_000, 7_200_000, 86_400_000, 1_500]);
    expect(parseDuration('5')).toBeNull();
    expect(parseDuration('-5s')).toBeNull();
    expect(() => loadSettings({ WEBHOOKS_RETRY_SCHEDULE: '5s,soon' })).toThrow(/WEBHOOKS_RETRY_SCHEDULE/);
    expect(() => loadSettings({ WEBHOOKS_ALLOW_PRIVATE_NETWORKS: 'intranet' })).toThrow(/WEBHOOKS_ALLOW_PRIVATE_NETWORKS/);
  });

  it('jitter scales each wait within [1 - j, 1 + j]; after the last entry there is no further attempt', () => {
    const schedule = [5_000, 300_000];
    expect(retryWait(schedule, 1, 0.2, 0)).toBe(4_000);
    expect(retryWait(schedule, 1, 0.2, 0.5)).toBe(5_000);
    expect(retryWait(schedule, 1, 0.2, 0.999999)).toBeLessThanOrEqual(6_000);
    expect(retryWait(schedule, 2, 0, 0.3)).toBe(300_000);
    expect(retryWait(schedule, 3, 0.2, 0.5)).toBeNull();
  });

  it('reads Retry-After as seconds or an HTTP date, bounded to a day, and only 429 and 503 honour it', () => {
    const now = new Date('2026-05-04T09:30:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 04 May 2026 09:31:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Mon, 04 May 2026 09:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('9999999', now)).toBe(86_400_000);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(null, now)).toBeNull();
    expect([429, 503].every(honoursRetryAfter)).toBe(true);
    expect([500, 502, 410, 301].some(honoursRetryAfter)).toBe(false);
  });

  it('2xx delivers, 410 is gone, everything else (3xx included: never followed) retries', () => {
    expect([200, 201, 204, 299].map(classifyStatus)).toEqual(['delivered', 'delivered', 'delivered', 'delivered']);
    expect(classifyStatus(410)).toBe('gone');
    expect([301, 302, 307, 308, 400, 404, 429, 500, 503].map(classifyStatus).every((v) => v === 'retry')).toBe(true);
  });
});
