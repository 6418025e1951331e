/**
 * The shape of a regular expression that already compiled with the `u` flag: alternatives,
 * groups and quantifiers, with every single-character atom (literal, escape, class, dot) reduced
 * to `char`. That is all the backtracking estimate in pattern-safety.ts needs. Unicode-mode
 * syntax is strict (a lone `{` or `]` does not compile), so the parser never has to guess.
 */

export type Shape =
  | { kind: 'char' }
  | { kind: 'assertion' }
  | { kind: 'group'; body: Alternatives }
  | { kind: 'repeat'; min: number; max: number; body: Shape };

/** The alternatives of a disjunction, each a sequence of terms. */
export type Alternatives = Shape[][];

export class UnsupportedPattern extends Error {}

const CHAR: Shape = { kind: 'char' };
const ASSERTION: Shape = { kind: 'assertion' };

/** Throws UnsupportedPattern for backreferences, lookarounds and group modifiers. */
export function parseShape(source: string): Alternatives {
  const parser = new ShapeParser(source);
  const result = parser.alternatives();
  if (!parser.done()) throw new UnsupportedPattern('unexpected ")"');
  return result;
}

class ShapeParser {
  private i = 0;

  constructor(private readonly s: string) {}

  done(): boolean {
    return this.i >= this.s.length;
  }

  alternatives(): Alternatives {
    const result = [this.sequence()];
    while (this.s[this.i] === '|') {
      this.i++;
      result.push(this.sequence());
    }
    return result;
  }

  private sequence(): Shape[] {
    const terms: Shape[] = [];
    while (this.i < this.s.length && this.s[this.i] !== '|' && this.s[this.i] !== ')') {
      terms.push(this.quantified(this.atom()));
    }
    return terms;
  }

  private atom(): Shape {
    const c = this.s[this.i];
    if (c === '^' || c === '$') {
      this.i++;
      return ASSERTION;
    }
    if (c === '(') return this.group();
    if (c === '[') return this.characterClass();
    if (c === '\\') return this.escape();
    this.i += (this.s.codePointAt(this.i) ?? 0) > 0xffff ? 2 : 1;
    return CHAR;
  }

  private group(): Shape {
    this.i++;
    const rest = this.s.slice(this.i, this.i + 3);
    if (/^\?(=|!|<=|<!)/.test(rest)) throw new UnsupportedPattern('lookahead and lookbehind are not supported');
    if (rest.startsWith('?:')) this.i += 2;
    else if (rest.startsWith('?<')) this.i = this.s.indexOf('>', this.i) + 1;
    else if (rest.startsWith('?')) throw new UnsupportedPattern('group modifiers are not supported');
    const body = this.alternatives();
    if (this.s[this.i] !== ')') throw new UnsupportedPattern('unterminated group');
    this.i++;
    return { kind: 'group', body };
  }

  private characterClass(): Shape {
    this.i++;
    // Inside a class an escape never contains `]` (\p{..}, \u{..} hold letters and digits only).
    while (this.i < this.s.length && this.s[this.i] !== ']') this.i += this.s[this.i] === '\\' ? 2 : 1;
    this.i++;
    return CHAR;
  }

  private escape(): Shape {
    this.i++;
    const c = this.s[this.i] ?? '';
    if (c === 'b' || c === 'B') {
      this.i++;
      return ASSERTION;
    }
    if (/[1-9]/.test(c) || c === 'k') throw new UnsupportedPattern('backreferences are not supported');
    if ((c === 'p' || c === 'P' || c === 'u') && this.s[this.i + 1] === '{') {
      this.i = this.s.indexOf('}', this.i) + 1;
    } else if (c === 'u') this.i += 5;
    else if (c === 'x') this.i += 3;
    else if (c === 'c') this.i += 2;
    else this.i += (this.s.codePointAt(this.i) ?? 0) > 0xffff ? 2 : 1;
    return CHAR;
  }

  private quantified(body: Shape): Shape {
    const c = this.s[this.i];
    let min: number;
    let max: number;
    if (c === '*' || c === '+' || c === '?') {
      this.i++;
      [min, max] = c === '*' ? [0, Infinity] : c === '+' ? [1, Infinity] : [0, 1];
    } else if (c === '{') {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(this.s.slice(this.i));
      if (!m) throw new UnsupportedPattern('malformed quantifier');
      this.i += m[0].length;
      min = Number(m[1]);
      max = m[2] === undefined ? min : m[3] ? Number(m[3]) : Infinity;
    } else {
      return body;
    }
    if (this.s[this.i] === '?') this.i++;
    return { kind: 'repeat', min, max, body };
  }
}
