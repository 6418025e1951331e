import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cleanText, codePointLength, cutToCodePoints, hasUncleanText } from '../../../domain/forms/text-cleaning';

const anyText = fc.string({ unit: 'binary', maxLength: 60 });
const wellFormed = fc.string({ unit: 'grapheme', maxLength: 30 });
/** No lone surrogate: in Unicode mode a pair is one code point, so \p{Cs} only finds lone halves. */
const isWellFormed = (text: string) => !/\p{Cs}/u.test(text);

describe('cleanText', () => {
  it('removes C0, DEL, C1 and lone surrogates; single-line text loses tab and line breaks too', () => {
    expect(cleanText('a\u0000\u0001\t\n\r\u001f\u007f\u0080\u009fb\ud800c\udc00d', false)).toBe('abcd');
  });

  it('multi-line text keeps tab, LF and CR only', () => {
    expect(cleanText('a\t\n\r\u000b\u000c\u0000\u0085b', true)).toBe('a\t\n\rb');
  });

  it('keeps surrogate pairs, other Unicode and U+00A0 onwards', () => {
    expect(cleanText('😀 é 中 \u00a0 \u200b', false)).toBe('😀 é 中 \u00a0 \u200b');
  });

  it('leaves nothing to clean, and cleaning twice changes nothing (property)', () => {
    fc.assert(
      fc.property(anyText, fc.boolean(), (text, multiline) => {
        const once = cleanText(text, multiline);
        expect(hasUncleanText(once, multiline)).toBe(false);
        expect(cleanText(once, multiline)).toBe(once);
        expect(isWellFormed(once)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('code points', () => {
  it('count a surrogate pair as one character, as JSON Schema does', () => {
    expect(codePointLength('a😀b')).toBe(3);
    expect(codePointLength('\ud800')).toBe(1);
  });

  it('codePointLength agrees with [...text].length (property)', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(codePointLength(text)).toBe([...text].length);
      }),
    );
  });

  it('cutToCodePoints keeps the first n code points and never splits a pair (property)', () => {
    fc.assert(
      fc.property(wellFormed, fc.nat(40), (text, n) => {
        const cut = cutToCodePoints(text, n);
        expect(cut).toBe([...text].slice(0, n).join(''));
        expect(isWellFormed(cut)).toBe(true);
      }),
    );
  });
});
