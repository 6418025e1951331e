import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFPage } from 'pdf-lib';
import type { SealMark } from '../../domain/signatures/seal-contract';
import { fittedSize, printable } from './text';

const INK = rgb(0.05, 0.1, 0.35);

export interface PdfBox {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/**
 * A field's box in PDF user space: fields are top-left-origin points of the visible page (the
 * CropBox, which defaults to the MediaBox), PDF space is bottom-left with the box's own origin.
 */
export function toPdfBox(page: PDFPage, mark: Pick<SealMark, 'x' | 'y' | 'w' | 'h'>): PdfBox {
  const crop = page.getCropBox();
  return { x: crop.x + mark.x, y: crop.y + crop.height - mark.y - mark.h, width: mark.w, height: mark.h };
}

function drawText(page: PDFPage, font: PDFFont, raw: string, box: PdfBox): void {
  const text = printable(font, raw);
  const size = fittedSize(font, text, box.width, box.height * 0.75);
  // Baseline so the cap height sits in the middle of the box.
  const y = box.y + (box.height - font.heightAtSize(size, { descender: false })) / 2;
  page.drawText(text, { x: box.x, y, size, font, color: INK });
}

/** Draws every mark at its field: PNGs fitted keeping their aspect ratio, typed marks in an italic, text fitted to the box. */
export async function stampMarks(doc: PDFDocument, marks: readonly SealMark[]): Promise<void> {
  const pages = doc.getPages();
  const [script, plain] = await Promise.all([doc.embedFont(StandardFonts.TimesRomanItalic), doc.embedFont(StandardFonts.Helvetica)]);
  for (const mark of marks) {
    const page = pages[mark.page - 1];
    if (!page) throw new Error(`a ${mark.type} field is on page ${mark.page}; the document has ${pages.length}`);
    const box = toPdfBox(page, mark);
    if ('png' in mark) {
      const image = await doc.embedPng(mark.png);
      const scale = Math.min(box.width / image.width, box.height / image.height);
      const width = image.width * scale;
      const height = image.height * scale;
      page.drawImage(image, { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height });
    } else if ('typedText' in mark) {
      drawText(page, script, mark.typedText, box);
    } else {
      drawText(page, plain, mark.text, box);
    }
  }
}
