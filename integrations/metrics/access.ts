import { Counter } from 'prom-client';
import { AppError } from '../../domain/errors';
import { metricsRegistry } from './registry';

// Counted in plain numbers, handed to prom-client when Prometheus scrapes (`collect`): its own
// `inc` validates and hashes the label object on every call, and these two run on every guarded
// request (http.ts says the same of the request figures).
const decisionCounts = new Map<string, number>();
let hits = 0;
let misses = 0;

new Counter({
  name: 'platform_access_guard_decisions_total',
  help: 'Capability guard decisions by outcome: allowed, or the refusal code.',
  labelNames: ['outcome'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    for (const [outcome, n] of decisionCounts) this.inc({ outcome }, n);
  },
});

new Counter({
  name: 'platform_access_cache_lookups_total',
  help: "Caller-snapshot cache lookups by result (hit, miss); a miss reads PostgreSQL.",
  labelNames: ['result'] as const,
  registers: [metricsRegistry],
  collect() {
    this.reset();
    if (hits > 0) this.inc({ result: 'hit' }, hits);
    if (misses > 0) this.inc({ result: 'miss' }, misses);
  },
});

const countDecision = (outcome: string) => decisionCounts.set(outcome, (decisionCounts.get(outcome) ?? 0) + 1);

/** Runs the guard's check and counts its decision: allowed, or the refusal's code (a closed set: domain/error-codes.ts). */
export function countedGuardDecision(check: () => void) {
  try {
    check();
  } catch (err) {
    countDecision(err instanceof AppError ? err.code : 'error');
    throw err;
  }
  countDecision('allowed');
}

export function countAccessCacheLookup(hit: boolean) {
  if (hit) hits++;
  else misses++;
}
