import { Counter, Histogram } from 'prom-client';
import { metricsRegistry } from './registry';

/** The route label of a request that matched no route: raw paths never become labels. */
export const UNMATCHED_ROUTE = '(unmatched)';

const labelNames = ['method', 'route', 'status_class'] as const;

const requests = new Counter({
  name: 'platform_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status class.',
  labelNames,
  registers: [metricsRegistry],
});

const duration = new Histogram({
  name: 'platform_http_request_duration_seconds',
  help: 'Time from receiving a request to its answer (streamed bodies: to the headers), by method, route template and status class.',
  labelNames,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [metricsRegistry],
});

/** Methods outside this list (any string a client sends) are counted as OTHER. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The labelled series of each method, route template and status class, resolved once: prom-client
 * hashes the label object on every `inc(labels)`, a cost per request on the hottest path. Bounded
 * like the labels themselves (route templates, not paths).
 */
const series = new Map<string, { count: ReturnType<typeof requests.labels>; time: ReturnType<typeof duration.labels> }>();

export function observeHttpRequest(method: string, route: string, status: number, seconds: number) {
  const m = METHODS.has(method) ? method : 'OTHER';
  const statusClass = `${Math.floor(status / 100)}xx`;
  const key = `${m} ${statusClass} ${route}`;
  let s = series.get(key);
  if (!s) {
    const labels = { method: m, route, status_class: statusClass };
    s = { count: requests.labels(labels), time: duration.labels(labels) };
    series.set(key, s);
  }
  s.count.inc();
  s.time.observe(seconds);
}
