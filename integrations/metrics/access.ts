import { Counter } from 'prom-client';
import { AppError } from '../../domain/errors';
import { metricsRegistry } from './registry';

const decisions = new Counter({
  name: 'platform_access_guard_decisions_total',
  help: 'Capability guard decisions by outcome: allowed, or the refusal code.',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
});

const cache = new Counter({
  name: 'platform_access_cache_lookups_total',
  help: "Caller-snapshot cache lookups by result (hit, miss); a miss reads PostgreSQL.",
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
});

/** Runs the guard's check and counts its decision: allowed, or the refusal's code (a closed set: domain/error-codes.ts). */
export function countedGuardDecision(check: () => void) {
  try {
    check();
  } catch (err) {
    decisions.inc({ outcome: err instanceof AppError ? err.code : 'error' });
    throw err;
  }
  decisions.inc({ outcome: 'allowed' });
}

export const countAccessCacheLookup = (hit: boolean) => cache.inc({ result: hit ? 'hit' : 'miss' });
