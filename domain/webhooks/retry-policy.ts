// When a failed webhook attempt is tried again (docs/webhooks.md "Retries"): Svix's schedule by
// default, each wait scaled by jitter so endpoints that failed together are not retried together,
// and never earlier than a 429 or 503 answer's Retry-After asks.

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const DURATION = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/** `200ms`, `5s`, `5m`, `2h`, `1d` in milliseconds; null for anything else. */
export function parseDuration(text: string): number | null {
  const m = DURATION.exec(text.trim());
  if (!m) return null;
  return Math.round(Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS]);
}

/** The longest wait a receiver's Retry-After can impose: a day. */
export const MAX_RETRY_AFTER_MS = 86_400_000;

/**
 * The wait before attempt `attempt + 1` after attempt `attempt` (1-based) failed, or null when the
 * schedule has no further attempt. `random` is in [0, 1); the wait is scaled by a factor in
 * [1 - jitter, 1 + jitter].
 */
export function retryWait(schedule: readonly number[], attempt: number, jitter: number, random: number): number | null {
  const base = schedule[attempt - 1];
  if (base === undefined) return null;
  return Math.max(0, Math.round(base * (1 - jitter + 2 * jitter * random)));
}

/**
 * A Retry-After header (delta seconds or an HTTP date) as milliseconds from `now`, bounded to a
 * day; null when absent or unreadable.
 */
export function parseRetryAfter(header: string | null | undefined, now: Date): number | null {
  if (!header) return null;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Math.min(Number(text) * 1_000, MAX_RETRY_AFTER_MS);
  const date = Date.parse(text);
  if (Number.isNaN(date)) return null;
  return Math.min(Math.max(0, date - now.getTime()), MAX_RETRY_AFTER_MS);
}

/** What an HTTP answer means for the delivery: done, the endpoint is gone, or try again. */
export function classifyStatus(status: number): 'delivered' | 'gone' | 'retry' {
  if (status >= 200 && status < 300) return 'delivered';
  if (status === 410) return 'gone';
  // 3xx is a failure: a redirect is never followed (it could lead anywhere, a private address too).
  return 'retry';
}

/** Only these answers carry a Retry-After the delivery honours. */
export const honoursRetryAfter = (status: number) => status === 429 || status === 503;
