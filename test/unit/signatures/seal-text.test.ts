import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { toPdfBox } from '../../../integrations/seal/stamp';
import { fittedSize, printable, wrapped } from '../../../integrations/seal/text';

const font = async () => (await PDFDocument.create()).embedFont(StandardFonts.Helvetica);

describe('seal text', () => {
  it('keeps WinAnsi text, strips accents WinAnsi lacks and replaces other scripts with ?, so encoding never throws', async () => {
    const f = await font();
    expect(printable(f, 'Zoë Ødegård – “quoted” €5')).toBe('Zoë Ødegård – “quoted” €5');
    expect(printable(f, 'Łukasz Dvořák')).toBe('?ukasz Dvorák');
    expect(printable(f, 'Иван 王 😀')).toBe('???? ? ?');
    expect(printable(f, 'a\r\nb\tc')).toBe('a b c');
    expect(() => f.encodeText(printable(f, 'Иван Петров 王小明 😀'))).not.toThrow();
  });

  it('fits text to a width and wraps long lines, cutting words longer than a line', async () => {
    const f = await font();
    const size = fittedSize(f, 'Ada Lovelace', 50, 30);
    expect(f.widthOfTextAtSize('Ada Lovelace', size)).toBeLessThanOrEqual(50.0001);
    expect(fittedSize(f, 'x', 500, 12)).toBe(12);
    const lines = wrapped(f, `short words here ${'x'.repeat(200)}`, 10, 100);
    expect(lines[0]).toBe('short words here');
    for (const line of lines) expect(f.widthOfTextAtSize(line, 10)).toBeLessThanOrEqual(100);
    expect(lines.join('')).toBe(`short words here${'x'.repeat(200)}`);
  });

  it('maps a top-left field into PDF space of the visible box, with its origin', async () => {
    const doc = await PDFDocument.create();
    const plain = doc.addPage([612, 792]);
    expect(toPdfBox(plain, { x: 72, y: 100, w: 200, h: 20 })).toEqual({ x: 72, y: 672, width: 200, height: 20 });
    const cropped = doc.addPage([600, 800]);
    cropped.setCropBox(50, 100, 500, 600);
    expect(toPdfBox(cropped, { x: 100, y: 200, w: 120, h: 40 })).toEqual({ x: 150, y: 460, width: 120, height: 40 });
  });
});
