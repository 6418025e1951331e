/**
 * The order the sides of a side-by-side measurement run in, round `round`: rotated one place a
 * round and reversed every other round, so no side is always first, always last, or always after
 * the same side (whose leftover garbage or export work it would pay for).
 */
export function roundOrder<T>(sides: readonly T[], round: number): T[] {
  const rotated = sides.map((_, i) => sides[(i + round) % sides.length]!);
  return round % 2 === 1 ? rotated.reverse() : rotated;
}
