import { describe, expect, it } from 'vitest';
import { observeHttpRequest } from '../../../integrations/metrics/http';
import { metricsRegistry } from '../../../integrations/metrics/registry';

const family = async (name: string) => (await metricsRegistry.getMetricsAsJSON()).find((m) => m.name === name)!;
const where = (labels: Record<string, string | number>) => (v: { labels: Record<string, unknown> }) =>
  Object.entries(labels).every(([k, x]) => v.labels[k] === x);

describe('HTTP request figures', () => {
  it('counts by method, route template and status class, and fills cumulative buckets like a prom-client histogram', async () => {
    const route = '/unit/histogram/:id';
    for (const seconds of [0.001, 0.005, 0.007, 0.3, 42]) observeHttpRequest('GET', route, 200, seconds);
    observeHttpRequest('GET', route, 404, 0.002);

    const count = await family('platform_http_requests_total');
    expect(count.type).toBe('counter');
    expect(count.values.find(where({ route, method: 'GET', status_class: '2xx' }))?.value).toBe(5);
    expect(count.values.find(where({ route, method: 'GET', status_class: '4xx' }))?.value).toBe(1);

    const time = await family('platform_http_request_duration_seconds');
    expect(time.type).toBe('histogram');
    const ok = time.values.filter(where({ route, status_class: '2xx' })) as Array<{ labels: Record<string, unknown>; value: number; metricName?: string }>;
    const bucket = (le: number | string) => ok.find((v) => v.metricName?.endsWith('_bucket') && v.labels.le === le)?.value;
    expect(bucket(0.005)).toBe(2); // a value on a bound counts in that bucket (le: less or equal)
    expect(bucket(0.01)).toBe(3);
    expect(bucket(0.25)).toBe(3);
    expect(bucket(0.5)).toBe(4);
    expect(bucket(10)).toBe(4);
    expect(bucket('+Inf')).toBe(5);
    expect(ok.find((v) => v.metricName?.endsWith('_count'))?.value).toBe(5);
    expect(ok.find((v) => v.metricName?.endsWith('_sum'))?.value).toBeCloseTo(42.313, 9);
  });

  it('folds methods outside the standard list into OTHER and status codes outside 1xx–5xx into the nearest class', async () => {
    const route = '/unit/odd';
    observeHttpRequest('BREW', route, 200, 0.001);
    observeHttpRequest('PROPFIND', route, 200, 0.001);
    observeHttpRequest('GET', route, 99, 0.001);
    observeHttpRequest('GET', route, 600, 0.001);
    const count = await family('platform_http_requests_total');
    const mine = count.values.filter(where({ route }));
    expect(mine.find(where({ method: 'OTHER', status_class: '2xx' }))?.value).toBe(2);
    expect(mine.find(where({ method: 'GET', status_class: '1xx' }))?.value).toBe(1);
    expect(mine.find(where({ method: 'GET', status_class: '5xx' }))?.value).toBe(1);
    expect(mine).toHaveLength(3);
  });

  it('is written out by prom-client in the text exposition format', async () => {
    observeHttpRequest('POST', '/unit/text', 201, 0.02);
    const text = await metricsRegistry.metrics();
    expect(text).toContain('# TYPE platform_http_request_duration_seconds histogram');
    expect(text).toContain('platform_http_requests_total{method="POST",route="/unit/text",status_class="2xx"} 1');
    expect(text).toContain('platform_http_request_duration_seconds_bucket{method="POST",route="/unit/text",status_class="2xx",le="0.025"} 1');
    expect(text).toContain('platform_http_request_duration_seconds_count{method="POST",route="/unit/text",status_class="2xx"} 1');
  });
});
