// What a source PDF must be before it is stored (geometry rule 2): parsable, not encrypted, not
// signed already, with pages, none of them rotated. pdf-lib reads it whole; the upload route
// bounds its size first.
import { PDFDocument, PDFName, PDFSignature } from 'pdf-lib';
import { badRequest } from '../../domain/errors';

const PDF_MAGIC = Buffer.from('%PDF-');

const invalid = (detail: string, extra?: Record<string, unknown>) => badRequest('pdf-invalid', detail, extra);

/**
 * Whether a signature field of the document holds a signature. The seal stamps the marks and saves
 * the document whole before signing it, which would break every signature already in it (its
 * byte ranges no longer match), so a signed document is refused rather than sealed broken.
 */
function isSigned(doc: PDFDocument): boolean {
  let fields;
  try {
    fields = doc.getForm().getFields();
  } catch {
    return false; // a form pdf-lib cannot walk holds no signature it could find either
  }
  return fields.some((f) => f instanceof PDFSignature && f.acroField.dict.has(PDFName.of('V')));
}

export async function inspectSourcePdf(bytes: Uint8Array): Promise<{ pageCount: number }> {
  // The header may follow up to 1024 bytes of junk (ISO 32000-1, 7.5.2 as readers apply it).
  if (Buffer.from(bytes.subarray(0, 1024 + PDF_MAGIC.length)).indexOf(PDF_MAGIC) < 0) throw invalid('The file is not a PDF');
  let doc: PDFDocument;
  try {
    // Loaded with encryption ignored and judged below: pdf-lib's own error class does not survive
    // its ES5 build (instanceof fails), the flag does.
    doc = await PDFDocument.load(bytes, { updateMetadata: false, throwOnInvalidObject: true, ignoreEncryption: true });
  } catch (err) {
    throw invalid(`The PDF cannot be parsed: ${(err as Error).message.slice(0, 200)}`);
  }
  if (doc.isEncrypted) throw invalid('Encrypted PDFs are not supported: upload one without a password or permissions');
  if (isSigned(doc)) throw invalid('Signed PDFs are not supported: sealing would invalidate the signatures already in it; upload the unsigned document');
  let pages;
  try {
    pages = doc.getPages();
  } catch {
    throw invalid('The PDF has no readable page tree');
  }
  if (pages.length === 0) throw invalid('The PDF has no pages');
  pages.forEach((page, i) => {
    if (page.getRotation().angle % 360 !== 0) throw invalid('rotated pages are not supported', { page: i + 1 });
  });
  return { pageCount: pages.length };
}
