/// <reference lib="dom" />
// The document of the signing page: every page rendered by pdf.js onto a canvas as wide as the
// screen allows, with this recipient's fields laid over it as buttons. Fields are in PDF points
// from the page's top-left corner, so a box is placed in percentages of its page and follows the
// page at any width.
import { GlobalWorkerOptions, getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
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

/**
 * Renders the PDF into `container`, one `.page` per page, and a `.field-box` button per field
 * (`makeBox` labels it); answers the boxes by field id (a field on a page the PDF lacks has none).
 */
export async function renderPages(
  container: HTMLElement,
  pdfBase64: string,
  workerSrc: string,
  fields: readonly SignField[],
  makeBox: (field: SignField, box: HTMLButtonElement) => void,
): Promise<Map<string, HTMLButtonElement>> {
  GlobalWorkerOptions.workerSrc = workerSrc;
  // No eval (the CSP forbids it), no scripts or forms of the PDF: pages are only pictures here.
  const pdf = await getDocument({ data: bytesOf(pdfBase64), isEvalSupported: false, enableXfa: false, useSystemFonts: true }).promise;
  const boxes = new Map<string, HTMLButtonElement>();
  const ratio = Math.max(window.devicePixelRatio || 1, 1);
  for (let n = 1; n <= pdf.numPages; n++) {
    const page = await pdf.getPage(n);
    const size = page.getViewport({ scale: 1 });
    const holder = document.createElement('div');
    holder.className = 'page';
    holder.setAttribute('role', 'group');
    holder.setAttribute('aria-label', `Page ${n} of ${pdf.numPages}`);
    const canvas = document.createElement('canvas');
    canvas.setAttribute('role', 'img');
    canvas.setAttribute('aria-label', `Page ${n} of the document`);
    holder.append(canvas);
    container.append(holder);
    const cssWidth = holder.clientWidth || size.width;
    const viewport = page.getViewport({ scale: (cssWidth / size.width) * ratio });
    canvas.width = Math.floor(viewport.width);
    canvas.height = Math.floor(viewport.height);
    holder.style.aspectRatio = `${size.width} / ${size.height}`;
    await page.render({ canvas, viewport }).promise;
    for (const field of fields.filter((f) => f.page === n)) {
      const box = document.createElement('button');
      box.type = 'button';
      box.className = 'field-box';
      box.dataset.fieldId = field.id;
      box.style.left = `${(field.x / size.width) * 100}%`;
      box.style.top = `${(field.y / size.height) * 100}%`;
      box.style.width = `${(field.w / size.width) * 100}%`;
      box.style.height = `${(field.h / size.height) * 100}%`;
      makeBox(field, box);
      holder.append(box);
      boxes.set(field.id, box);
    }
  }
  return boxes;
}
