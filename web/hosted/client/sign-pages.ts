/// <reference lib="dom" />
// The document of the signing page: every page rendered by pdf.js onto a canvas as wide as the
// screen allows (times the zoom), this recipient's fields laid over it as buttons, and each page's
// text as an accessible alternative (a screen reader reads what is being signed; the canvas is
// only its picture). Fields are in PDF points from the page's top-left corner, so a box is placed
// in percentages of its page and follows the page at any width and zoom. pdf.js gets its standard
// fonts, CMaps, wasm decoders and colour profiles from our origin (web/hosted/pdf-assets.ts).
import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy, type PDFPageProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';
import type { SigningField } from '../../../domain/signatures/signing-schema';

// The session's fields are the signing schema's own (a type-only import: nothing of it is bundled).
export type { FieldType } from '../../../domain/signatures/signing-schema';
export type SignField = SigningField;

function bytesOf(base64: string): Uint8Array {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

/** The drawn part of a field's box: what the box shows goes in here. */
export const markOf = (box: HTMLButtonElement) => box.querySelector<HTMLElement>('.field-mark')!;

export interface RenderedPages {
  boxes: Map<string, HTMLButtonElement>;
  /** Redraws every canvas at its current width (after a zoom), so the text stays sharp. */
  redraw(): Promise<void>;
}

/** The page's text, line by line, as pdf.js extracts it. */
async function pageText(page: PDFPageProxy): Promise<string[]> {
  const content = await page.getTextContent();
  const lines: string[] = [];
  let line = '';
  for (const item of content.items) {
    if (!('str' in item)) continue;
    line += item.str;
    if (item.hasEOL) {
      if (line.trim()) lines.push(line.trim());
      line = '';
    }
  }
  if (line.trim()) lines.push(line.trim());
  return lines;
}

async function drawPage(page: PDFPageProxy, holder: HTMLElement, canvas: HTMLCanvasElement) {
  const size = page.getViewport({ scale: 1 });
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  const cssWidth = holder.clientWidth || size.width;
  const viewport = page.getViewport({ scale: (cssWidth / size.width) * ratio });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  await page.render({ canvas, viewport }).promise;
}

/**
 * Renders the PDF into `container`, one `.page` per page, and a `.field-box` button per field
 * (`makeBox` labels it); answers the boxes by field id (a field on a page the PDF lacks has none).
 */
export async function renderPages(
  container: HTMLElement,
  pdfBase64: string,
  assets: { workerSrc: string; assetBase: string },
  fields: readonly SignField[],
  makeBox: (field: SignField, box: HTMLButtonElement) => void,
): Promise<RenderedPages> {
  GlobalWorkerOptions.workerSrc = assets.workerSrc;
  const base = `${location.origin}${assets.assetBase}`;
  // No eval (the CSP forbids it), no scripts or forms of the PDF: pages are only pictures here.
  const pdf: PDFDocumentProxy = await getDocument({
    data: bytesOf(pdfBase64),
    isEvalSupported: false,
    enableXfa: false,
    standardFontDataUrl: `${base}/standard_fonts/`,
    cMapUrl: `${base}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${base}/wasm/`,
    iccUrl: `${base}/iccs/`,
  }).promise;
  const boxes = new Map<string, HTMLButtonElement>();
  const drawn: { page: PDFPageProxy; holder: HTMLElement; canvas: HTMLCanvasElement }[] = [];
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const size = page.getViewport({ scale: 1 });
    const holder = document.createElement('div');
    holder.className = 'page';
    holder.setAttribute('role', 'group');
    holder.setAttribute('aria-label', `Page ${n} of ${pdf.numPages}`);
    holder.style.aspectRatio = `${size.width} / ${size.height}`;
    const canvas = document.createElement('canvas');
    // The picture of the page; its words are in the text alternative below.
    canvas.setAttribute('aria-label', `Page ${n} of the document`);
    canvas.setAttribute('aria-hidden', 'true');
    const text = document.createElement('div');
    text.className = 'page-text';
    text.dataset.page = String(n);
    const lines = await pageText(page);
    text.append(...(lines.length ? lines : ['This page has no text.']).map((l) => Object.assign(document.createElement('p'), { textContent: l })));
    holder.append(canvas, text);
    container.append(holder);
    await drawPage(page, holder, canvas);
    drawn.push({ page, holder, canvas });
    for (const field of fields.filter((f) => f.page === n)) {
      const box = document.createElement('button');
      box.type = 'button';
      box.className = 'field-box';
      box.dataset.fieldId = field.id;
      box.style.left = `${(field.x / size.width) * 100}%`;
      box.style.top = `${(field.y / size.height) * 100}%`;
      box.style.width = `${(field.w / size.width) * 100}%`;
      box.style.height = `${(field.h / size.height) * 100}%`;
      // The drawn field is the inner mark; the button around it reaches out to a 24 px target (CSS).
      const mark = document.createElement('span');
      mark.className = 'field-mark';
      box.append(mark);
      makeBox(field, box);
      holder.append(box);
      boxes.set(field.id, box);
    }
  }
  return {
    boxes,
    async redraw() {
      for (const d of drawn) await drawPage(d.page, d.holder, d.canvas);
    },
  };
}
