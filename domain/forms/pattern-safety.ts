/**
 * Author patterns (`validation.pattern`) run on values anyone may submit, so a pattern that can
 * backtrack catastrophically is refused when the schema is saved. JavaScript has no regex time
 * limit, hence a static check:
 *
 * - A pattern matches the whole value (it is compiled as `^(?:pattern)$` with the `u` flag, like
 *   HTML's `pattern` attribute); anchoring removes the factor of trying every start position.
 * - The value a pattern sees is at most LIMITS.patternedValue (1,000) characters.
 * - Backreferences and lookarounds are refused (they are not needed to validate a form field and
 *   make the cost hard to bound).
 * - The number of ways the pattern can split a value among its quantifiers and alternatives is
 *   estimated from its shape (an open-ended quantifier counts as up to 1,000 repetitions) and must
 *   stay at or under MAX_WAYS. A repeated group whose body has more than one way to match (`(a+)+`,
 *   `(a|b)*`, `(\w+\s?)*`) is exponential and always refused; two open-ended quantifiers in a row
 *   (`\d+\d+`, about a million ways, a millisecond on 1,000 characters) pass; three do not.
 *
 * The estimate is conservative: some safe patterns are refused (`(ab|cd)*`; write `(?:[ac][bd])*`
 * or a character class), none that can blow up is accepted. test/unit/forms/pattern-safety.test.ts
 * holds a corpus of known ReDoS patterns and times accepted random patterns on adversarial input.
 */
import { LIMITS } from './field-types';
import { type Alternatives, type Shape, UnsupportedPattern, parseShape } from './regex-shape';
import { codePointLength, hasUncleanText } from './text-cleaning';

export const MAX_WAYS = 10_000_000;

/** Why `pattern` cannot be a field's validation pattern, or undefined when it can. */
export function patternProblem(pattern: unknown): string | undefined {
  if (typeof pattern !== 'string') return 'must be a regular expression in a string';
  if (pattern.length === 0) return 'must not be empty';
  if (codePointLength(pattern) > LIMITS.pattern) return `must be at most ${LIMITS.pattern} characters`;
  if (hasUncleanText(pattern, false)) return 'must not contain control characters (write them as escapes, e.g. \\t)';
  try {
    new RegExp(pattern, 'u');
  } catch (e) {
    return `does not compile: ${(e as Error).message}`;
  }
  let shape: Alternatives;
  try {
    shape = parseShape(pattern);
  } catch (e) {
    if (e instanceof UnsupportedPattern) return e.message;
    throw e;
  }
  if (waysOf(shape) > MAX_WAYS) {
    return hasAmbiguousLoop(shape)
      ? 'may backtrack catastrophically: a repeated group must match in one way only (no nested quantifiers or alternatives inside it; use a character class or fixed counts)'
      : 'may backtrack catastrophically: too many open-ended or variable quantifiers (at most two open-ended ones; bound the others, e.g. {1,20})';
  }
  return undefined;
}

/** The regular expression a safe pattern is tested with: whole value, Unicode mode. */
export const anchoredPattern = (pattern: string): RegExp => new RegExp(`^(?:${pattern})$`, 'u');

const N = LIMITS.patternedValue;

function waysOf(alternatives: Alternatives): number {
  let sum = 0;
  for (const sequence of alternatives) {
    let product = 1;
    for (const term of sequence) product *= waysOfShape(term);
    sum += product;
  }
  return sum;
}

function waysOfShape(shape: Shape): number {
  switch (shape.kind) {
    case 'char':
    case 'assertion':
      return 1;
    case 'group':
      return waysOf(shape.body);
    case 'repeat':
      return repeatWays(waysOfShape(shape.body), shape.min, shape.max);
  }
}

/** Sum over k in [min, max] of b^k: each count of repetitions, each with b ways per repetition. */
function repeatWays(b: number, min: number, max: number): number {
  const lo = Math.min(min, N);
  const hi = Math.min(max, N);
  if (lo > hi) return 1;
  if (b <= 1) return hi - lo + 1;
  let sum = 0;
  for (let k = lo; k <= hi; k++) {
    sum += b ** k;
    if (sum > MAX_WAYS) return Infinity;
  }
  return sum;
}

function hasAmbiguousLoop(alternatives: Alternatives): boolean {
  return alternatives.some((sequence) => sequence.some(ambiguousLoopIn));
}

function ambiguousLoopIn(shape: Shape): boolean {
  if (shape.kind === 'group') return hasAmbiguousLoop(shape.body);
  if (shape.kind !== 'repeat') return false;
  return (shape.max > 1 && waysOfShape(shape.body) > 1) || ambiguousLoopIn(shape.body);
}
