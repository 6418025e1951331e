import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LIMITS } from '../../../domain/forms/field-types';
import { MAX_WAYS, anchoredPattern, patternProblem } from '../../../domain/forms/pattern-safety';

const NESTED = /a repeated group must match in one way only/;
const TOO_MANY = /too many open-ended or variable quantifiers/;

/** Strings a backtracking matcher finds hardest: long runs it can split many ways, then a mismatch. */
function adversarialInputs(length: number): string[] {
  const runs = ['a', '1', ' ', '.', 'A', '_', '-', 'ab', 'a1', 'a.', '1.', 'aA'];
  return runs.flatMap((run) => {
    const body = run.repeat(Math.ceil((length - 1) / run.length)).slice(0, length - 1);
    return [`${body}!`, `${body}\u2603`, body];
  });
}

function millis(re: RegExp, input: string): number {
  const start = performance.now();
  re.test(input);
  return performance.now() - start;
}

/** Longest time the anchored pattern takes on any adversarial input of the largest allowed length. */
function worstMillis(pattern: string): number {
  const re = anchoredPattern(pattern);
  return Math.max(...adversarialInputs(LIMITS.patternedValue).map((input) => millis(re, input)));
}

describe('pattern safety: everyday patterns pass', () => {
  it.each([
    '[a-z]+',
    '^[A-Z]{2}[0-9]{5}$',
    '\\d{5}',
    '(\\d{1,3}\\.){3}\\d{1,3}',
    '[A-Z]{2}\\d{2}[A-Z0-9]{1,30}',
    '\\+?[0-9 ()-]{6,20}',
    '\\d+(\\.\\d{1,2})?',
    '\\d+(\\.\\d+)?',
    '(?<year>\\d{4})-(?<month>\\d{2})',
    '\\p{Lu}\\p{Ll}*',
    '[\\]\\\\]+',
    '\\u{1F600}+',
    '😀+x',
    '(?:ab)*(?:ab)*',
    'yes|no|maybe',
    '[^@\\s]{1,64}@[^@\\s]{1,200}\\.[a-z]{2,20}',
  ])('%s', (pattern) => {
    expect(patternProblem(pattern)).toBeUndefined();
  });
});

describe('pattern safety: catastrophic backtracking is refused', () => {
  it.each([
    ['(a+)+$', NESTED],
    ['(a*)*', NESTED],
    ['(.*)*', NESTED],
    ['(a|a)*', NESTED],
    ['(a|ab)*c', NESTED],
    ['(\\w|\\d)+', NESTED],
    ['([a-z]+\\s?)*', NESTED],
    ['(\\w+\\s?)*$', NESTED],
    ['(x+x+)+y', NESTED],
    ['(a{1,30}){1,30}', NESTED],
    ['(a?){40}', NESTED],
    ['[A-Z][a-z]+(?: [A-Z][a-z]+)*', NESTED],
    ['^([a-zA-Z0-9])(([\\-.]|[_]+)?([a-zA-Z0-9]+))*(@){1}[a-z0-9]+[.]{1}(([a-z]{2,3})|([a-z]{2,3}[.]{1}[a-z]{2,3}))$', NESTED],
    ['.*a.*a.*a', TOO_MANY],
    ['\\d*\\d*\\d*', TOO_MANY],
    ['[^@\\s]+@[^@\\s]+\\.[^@\\s]+', TOO_MANY],
  ])('%s', (pattern, reason) => {
    expect(patternProblem(pattern)).toMatch(reason);
  });

  it('two open-ended quantifiers in a row are the most allowed (quadratic at worst, on at most 1,000 characters)', () => {
    expect(patternProblem('\\d+\\d+')).toBeUndefined();
    expect(patternProblem('\\d+\\d+\\d+')).toMatch(TOO_MANY);
    expect(patternProblem('\\d+\\d+\\d{0,9}')).toBeUndefined();
    expect(MAX_WAYS).toBe(10_000_000);
  });
});

describe('pattern safety: other refusals', () => {
  it.each([
    [42, /must be a regular expression in a string/],
    ['', /must not be empty/],
    ['a'.repeat(LIMITS.pattern + 1), /at most 200 characters/],
    ['(', /does not compile/],
    ['a{2,1}', /does not compile/],
    ['\\q', /does not compile/], // Unicode mode refuses unknown escapes
    ['(a)\\1', /backreferences are not supported/],
    ['(?<x>a)\\k<x>', /backreferences are not supported/],
    ['(?=.*\\d).{8,}', /lookahead and lookbehind are not supported/],
    ['(?!a)b', /lookahead and lookbehind are not supported/],
    ['(?<=a)b', /lookahead and lookbehind are not supported/],
    ['(?<!a)b', /lookahead and lookbehind are not supported/],
    ['a\u0000b', /control characters/],
    ['a\nb', /control characters/],
  ])('%j', (pattern, reason) => {
    expect(patternProblem(pattern)).toMatch(reason);
  });

  it('counts the length in characters, so 200 emoji are allowed', () => {
    expect(patternProblem('😀'.repeat(LIMITS.pattern))).toBeUndefined();
  });

  it('matches the whole value in Unicode mode', () => {
    const re = anchoredPattern('a|b');
    expect(re.test('a')).toBe(true);
    expect(re.test('ab')).toBe(false);
    expect(re.test('xa')).toBe(false);
    expect(anchoredPattern('.').test('😀')).toBe(true);
  });
});

const REGEX_CHARS = [...'()[]{}|*+?\\^$.,-0123456789abdswDSW<>=!:kpu_'];

describe('pattern safety: properties', () => {
  it('never throws, whatever the string', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: fc.constantFrom(...REGEX_CHARS), maxLength: 40 }), fc.string({ unit: 'binary', maxLength: 40 })), (pattern) => {
        const problem = patternProblem(pattern);
        expect(problem === undefined || typeof problem === 'string').toBe(true);
      }),
      { numRuns: 3000 },
    );
  });

  it('a pattern it accepts answers within 250 ms on adversarial input of the largest allowed length', () => {
    const atom = fc.constantFrom('a', 'b', '1', '.', '\\d', '\\w', '\\s', '[a-z]', '[^x]', '[a1.]', '\\.');
    const quantifier = fc.oneof(
      { arbitrary: fc.constant(''), weight: 4 },
      { arbitrary: fc.constantFrom('*', '+', '?', '{0,3}', '{1,5}', '{2}', '{3,}', '*?'), weight: 3 },
    );
    const pattern = fc.letrec<{ term: string; seq: string; alt: string }>((tie) => ({
      term: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        { arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q), weight: 3 },
        { arbitrary: fc.tuple(tie('alt'), quantifier).map(([a, q]) => `(?:${a})${q}`), weight: 1 },
      ),
      seq: fc.array(tie('term'), { minLength: 1, maxLength: 4 }).map((terms) => terms.join('')),
      alt: fc.oneof(
        { arbitrary: tie('seq'), weight: 3 },
        { arbitrary: fc.array(tie('seq'), { minLength: 2, maxLength: 3 }).map((seqs) => seqs.join('|')), weight: 1 },
      ),
    })).alt;

    let accepted = 0;
    fc.assert(
      fc.property(pattern, (p) => {
        if (patternProblem(p) !== undefined) return;
        accepted++;
        expect(worstMillis(p), p).toBeLessThan(250);
      }),
      { numRuns: 600 },
    );
    expect(accepted).toBeGreaterThan(100);
  });

  it('a refused pattern really is slow, so the timing above would notice one accepted by mistake', () => {
    // Exponential: 25 characters already take long; 1,000 would never end.
    expect(millis(anchoredPattern('(a+)+b'), `${'a'.repeat(25)}!`)).toBeGreaterThan(250);
  });
});
