// Statistics the benches share. Every figure a bench prints goes through these, so "p99" or
// "median" means the same thing in every JSON line.

/** The p-th percentile (0–100) by nearest rank: p99 of 100 samples is the 99th smallest. Sorts a copy. */
export function percentile(xs: readonly number[], p: number): number {
  return percentileOfSorted([...xs].sort((a, b) => a - b), p);
}

/** percentile() of samples already sorted ascending (millions of them: no copy, no sort). */
export function percentileOfSorted(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** The median, averaging the middle two of an even count. */
export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export const mean = (xs: readonly number[]) => (xs.length === 0 ? NaN : xs.reduce((a, x) => a + x, 0) / xs.length);

export const round = (x: number, digits = 2) => Number(x.toFixed(digits));

/** p50/p95/p99/max of latencies in ms, rounded for printing. */
export const latencySummary = (ms: readonly number[], digits = 2) => ({
  p50Ms: round(percentile(ms, 50), digits),
  p95Ms: round(percentile(ms, 95), digits),
  p99Ms: round(percentile(ms, 99), digits),
  maxMs: round(percentile(ms, 100), digits),
});

/** Milliseconds `fn` took. */
export async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}
