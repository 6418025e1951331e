import { createHash } from 'node:crypto';
import { rgb, StandardFonts, type PDFDocument, type PDFFont, type PDFImage, type PDFPage } from 'pdf-lib';
import type { SealMark } from '../../domain/signatures/seal-contract';
import { markPngStructureProblem } from './mark-png';
import { fittedSize, printable } from './text';

/** A mark the seal cannot draw (signing refuses these; a mark stored before that check could still be one). */
export class SealMarkInvalid extends Error {
  override name = 'SealMarkInvalid';
}

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

/**
 * Each distinct image once: a signer's initials on every page of a long contract are one image
 * object drawn many times, not one decode and one copy in the file per page. The PNG's structure
 * is checked before pdf-lib decodes a byte (signing checks it too; a mark stored before that check
 * could still be one pdf-lib would never return from).
 */
function imageEmbedder(doc: PDFDocument) {
  const embedded = new Map<string, Promise<PDFImage>>();
  return (png: Uint8Array): Promise<PDFImage> => {
    const key = createHash('sha256').update(png).digest('hex');
    let image = embedded.get(key);
    if (!image) {
      const problem = markPngStructureProblem(png);
      image = problem
        ? Promise.reject(new SealMarkInvalid(problem))
        : doc.embedPng(png).catch(() => Promise.reject(new SealMarkInvalid('not a decodable PNG image')));
      embedded.set(key, image);
    }
    return image;
  };
}

/** Draws every mark at its field: PNGs fitted keeping their aspect ratio, typed marks in an italic, text fitted to the box. */
export async function stampMarks(doc: PDFDocument, marks: readonly SealMark[]): Promise<void> {
  const pages = doc.getPages();
  const [script, plain] = await Promise.all([doc.embedFont(StandardFonts.TimesRomanItalic), doc.embedFont(StandardFonts.Helvetica)]);
  const embedPng = imageEmbedder(doc);
  for (const mark of marks) {
    const page = pages[mark.page - 1];
    if (!page) throw new SealMarkInvalid(`a ${mark.type} field is on page ${mark.page}; the document has ${pages.length}`);
    const box = toPdfBox(page, mark);
    if ('png' in mark) {
      const image = await embedPng(mark.png);
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
