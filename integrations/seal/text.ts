import type { PDFFont } from 'pdf-lib';

const encodable = new WeakMap<PDFFont, Set<number>>();

/**
 * `text` in characters `font` can encode: the standard 14 fonts speak WinAnsi only, and pdf-lib
 * throws on anything else. A character it lacks loses its accents when that helps (ő → o), else
 * becomes `?`, so names in any script still seal instead of failing the ceremony.
 */
export function printable(font: PDFFont, text: string): string {
  let set = encodable.get(font);
  if (!set) {
    set = new Set(font.getCharacterSet());
    encodable.set(font, set);
  }
  const known = set;
  let out = '';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    if (known.has(ch.codePointAt(0)!)) out += ch;
    else {
      const bare = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      out += bare.length > 0 && [...bare].every((c) => known.has(c.codePointAt(0)!)) ? bare : '?';
    }
  }
  return out;
}

/** The largest size up to `max` at which `text` fits `width`. */
export function fittedSize(font: PDFFont, text: string, width: number, max: number): number {
  const atOne = font.widthOfTextAtSize(text, 1);
  return atOne === 0 ? max : Math.max(1, Math.min(max, width / atOne));
}

/** `text` broken into lines no wider than `width` at `size` (words longer than a line are cut). */
export function wrapped(font: PDFFont, text: string, size: number, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    const candidate = line === '' ? word : `${line} ${word}`;
    if (font.widthOfTextAtSize(candidate, size) <= width) {
      line = candidate;
      continue;
    }
    if (line !== '') lines.push(line);
    line = word;
    while (font.widthOfTextAtSize(line, size) > width && line.length > 1) {
      let cut = line.length - 1;
      while (cut > 1 && font.widthOfTextAtSize(line.slice(0, cut), size) > width) cut--;
      lines.push(line.slice(0, cut));
      line = line.slice(cut);
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
