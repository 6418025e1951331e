/**
 * The order the sides of a side-by-side measurement run in, round `round`: forward and reversed
 * in turn, rotated one place every two rounds, so no side is always first, always last, or always
 * after the same side (whose leftover garbage or export work it would pay for). With two sides:
 * AB, BA, BA, AB.
 */
export function roundOrder<T>(sides: readonly T[], round: number): T[] {
  const shift = Math.floor(round / 2);
  const rotated = sides.map((_, i) => sides[(i + shift) % sides.length]!);
  return round % 2 === 1 ? rotated.reverse() : rotated;
}

/**
 * Runs `measure(side, round)` for every side in every round, in roundOrder, and answers each
 * side's results by round (index r is round r for every side, so per-round ratios pair up).
 */
export async function alternateRounds<S extends string, T>(sides: readonly S[], rounds: number, measure: (side: S, round: number) => Promise<T>): Promise<Record<S, T[]>> {
  const results = Object.fromEntries(sides.map((s) => [s, [] as T[]])) as Record<S, T[]>;
  for (let r = 0; r < rounds; r++) for (const side of roundOrder(sides, r)) results[side].push(await measure(side, r));
  return results;
}
