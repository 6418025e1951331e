import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, type PDFDocument, type PDFObject } from 'pdf-lib';

/** Bytes reserved for the DER CMS: /Contents holds twice as many hex digits. */
export const CONTENTS_BYTES = 65_536;

/** Ten digits: any offset of a file below 10 GB, so the patched ByteRange keeps its length. */
const RANGE_WIDTH = 10;

export interface SignatureSlot {
  /** The whole file with the signature dictionary appended; Contents is zeros until `fill`. */
  readonly pdf: Uint8Array;
  /** [0, before Contents' `<`, after its `>`, rest] as written in /ByteRange. */
  readonly byteRange: readonly [number, number, number, number];
  /** The bytes the signature covers: the file without the Contents hex string. */
  readonly signedBytes: () => Uint8Array;
  /** Writes the DER CMS into Contents in place (hex, zero-padded); throws when it does not fit. */
  readonly fill: (cms: Uint8Array) => void;
}

const latin1 = (s: string) => Buffer.from(s, 'latin1');

/** PDF date string of an instant, in UTC. */
const pdfDate = (d: Date) => `D:${d.toISOString().replace(/[-:T]/g, '').slice(0, 14)}Z`;

/** Offset after `startxref` at the end of a classic-xref file (pdf-lib writes exactly one). */
function previousXref(pdf: Uint8Array): number {
  const tail = Buffer.from(pdf.subarray(Math.max(0, pdf.length - 1024))).toString('latin1');
  const m = /startxref\s+(\d+)\s+%%EOF\s*$/.exec(tail);
  if (!m) throw new Error('the saved PDF has no startxref');
  return Number(m[1]);
}

/** An array of `obj` read through any reference, so the update can rewrite it directly. */
function arrayItems(doc: PDFDocument, obj: PDFObject | undefined): PDFObject[] {
  const resolved = obj === undefined ? undefined : doc.context.lookup(obj);
  return resolved instanceof PDFArray ? resolved.asArray() : [];
}

/**
 * Appends one incremental update to `pdf` (which `doc` was just saved to, with classic xref and no
 * object streams): a signature dictionary with a reserved Contents, an invisible signature field
 * on page 1, the AcroForm (SigFlags 3: signatures exist, append only), the Catalog and page 1
 * rewritten to point at them, and an xref section whose trailer names the previous one.
 */
export function appendSignatureSlot(doc: PDFDocument, pdf: Uint8Array, signedAt: Date): SignatureSlot {
  const context = doc.context;
  const catalogRef = context.trailerInfo.Root as PDFRef;
  const page = doc.getPage(0);
  let next = context.largestObjectNumber + 1;
  const sigRef = PDFRef.of(next++);
  const widgetRef = PDFRef.of(next++);

  const catalog = doc.catalog.clone(context);
  const existingForm = catalog.get(PDFName.of('AcroForm'));
  const formRef = existingForm instanceof PDFRef ? existingForm : PDFRef.of(next++);
  const formSource = existingForm === undefined ? undefined : context.lookup(existingForm);
  const form = formSource instanceof PDFDict ? formSource.clone(context) : context.obj({});
  form.set(PDFName.of('Fields'), context.obj([...arrayItems(doc, form.get(PDFName.of('Fields'))), widgetRef]));
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  catalog.set(PDFName.of('AcroForm'), formRef);

  const pageDict = page.node.clone(context);
  pageDict.set(PDFName.of('Annots'), context.obj([...arrayItems(doc, pageDict.get(PDFName.of('Annots'))), widgetRef]));

  const placeholder = '9'.repeat(RANGE_WIDTH);
  const sigPrefix = `<< /Type /Sig /Filter /Adobe.PPKLite /SubFilter /ETSI.CAdES.detached /M (${pdfDate(signedAt)}) /ByteRange [0 ${placeholder} ${placeholder} ${placeholder}] /Contents `;
  const contents = `<${'0'.repeat(CONTENTS_BYTES * 2)}>`;
  const widget = `<< /Type /Annot /Subtype /Widget /FT /Sig /T (Seal ${sigRef.objectNumber}) /V ${sigRef} /Rect [0 0 0 0] /F 132 /P ${page.ref} >>`;

  const objects: Array<[PDFRef, string]> = [
    [catalogRef, catalog.toString()],
    [page.ref, pageDict.toString()],
    [formRef, form.toString()],
    [widgetRef, widget],
    [sigRef, `${sigPrefix}${contents} >>`],
  ];

  let body = '\n';
  const offsets = new Map<PDFRef, number>();
  let sigDictOffset = 0;
  for (const [ref, text] of objects) {
    offsets.set(ref, pdf.length + body.length);
    const header = `${ref.objectNumber} ${ref.generationNumber} obj\n`;
    if (ref === sigRef) sigDictOffset = pdf.length + body.length + header.length;
    body += `${header}${text}\nendobj\n`;
  }
  const xrefOffset = pdf.length + body.length;
  const sorted = [...offsets.entries()].sort(([a], [b]) => a.objectNumber - b.objectNumber);
  let xref = 'xref\n';
  for (const [ref, offset] of sorted) {
    xref += `${ref.objectNumber} 1\n${String(offset).padStart(10, '0')} ${String(ref.generationNumber).padStart(5, '0')} n\r\n`;
  }
  const trailer = context.obj({
    Size: next,
    Root: catalogRef,
    ...(context.trailerInfo.Info ? { Info: context.trailerInfo.Info as PDFObject } : {}),
    ...(context.trailerInfo.ID ? { ID: context.trailerInfo.ID as PDFObject } : {}),
    Prev: previousXref(pdf),
  });
  const tail = `${xref}trailer\n${trailer.toString()}\nstartxref\n${xrefOffset}\n%%EOF\n`;

  const out = new Uint8Array(pdf.length + body.length + tail.length);
  out.set(pdf, 0);
  out.set(latin1(body), pdf.length);
  out.set(latin1(tail), pdf.length + body.length);

  const contentsStart = sigDictOffset + sigPrefix.length;
  const contentsEnd = contentsStart + contents.length;
  const byteRange = [0, contentsStart, contentsEnd, out.length - contentsEnd] as const;
  const rangeStart = sigDictOffset + sigPrefix.indexOf('/ByteRange [') + '/ByteRange ['.length;
  const rangeText = `[${byteRange.join(' ')}]`.padEnd(`[0 ${placeholder} ${placeholder} ${placeholder}]`.length, ' ');
  // The padded text ends with spaces after `]`; a dictionary allows whitespace there.
  out.set(latin1(rangeText.slice(1)), rangeStart);

  return {
    pdf: out,
    byteRange,
    signedBytes: () => Buffer.concat([out.subarray(0, contentsStart), out.subarray(contentsEnd)]),
    fill: (cms) => {
      if (cms.length > CONTENTS_BYTES) throw new Error(`the CMS signature is ${cms.length} bytes; ${CONTENTS_BYTES} are reserved`);
      out.set(latin1(Buffer.from(cms).toString('hex')), contentsStart + 1);
    },
  };
}
