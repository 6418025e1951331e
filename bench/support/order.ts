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
