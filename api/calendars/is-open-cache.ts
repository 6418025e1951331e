/**
 * Cache headers of an is-open answer, so a client polling every 60 seconds can back off: the
 * answer stays true until nextChangeAt, so it is cacheable until then (whole seconds, rounded
 * down, never past the change), capped by a setting because hours and holidays may be edited
 * meanwhile. An answer for an explicit `at` is not about now: no back-off is offered for it.
 * `private`: the answer belongs to one tenant and one set of credentials.
 */
export function isOpenCacheHeaders(
  nowMs: number,
  nextChangeAt: string | null,
  capSeconds: number,
  explicitInstant: boolean,
): Record<string, string> {
  const vary = { Vary: 'Authorization, X-Tenant-Id, X-User-Id' };
  if (explicitInstant || capSeconds <= 0) return { 'Cache-Control': 'private, no-cache', ...vary };
  const untilChange = nextChangeAt === null ? Number.POSITIVE_INFINITY : Date.parse(nextChangeAt) - nowMs;
  const maxAge = Math.max(0, Math.min(capSeconds, Math.floor(untilChange / 1000)));
  return {
    'Cache-Control': `private, max-age=${maxAge}`,
    Expires: new Date(nowMs + maxAge * 1000).toUTCString(),
    ...vary,
  };
}
