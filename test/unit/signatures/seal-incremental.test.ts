import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFRef, PDFString, PDFHexString } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { appendSignatureSlot, CONTENTS_BYTES } from '../../../integrations/seal/incremental';

async function saved(pages: number) {
  const doc = await PDFDocument.create();
  for (let i = 0; i < pages; i++) doc.addPage().drawText(`page ${i + 1}`, { x: 50, y: 50 });
  const pdf = await doc.save({ useObjectStreams: false });
  return { doc, pdf };
}

const latin1 = (b: Uint8Array, from: number, to: number) => Buffer.from(b.subarray(from, to)).toString('latin1');

describe('incremental signature update', () => {
  it('appends after the saved bytes untouched, with a ByteRange that skips exactly the Contents hex string', async () => {
    const { doc, pdf } = await saved(2);
    const slot = appendSignatureSlot(doc, pdf, new Date('2026-11-23T09:00:00Z'));
    expect(Buffer.from(slot.pdf.subarray(0, pdf.length)).equals(Buffer.from(pdf))).toBe(true);

    const [start, before, after, rest] = slot.byteRange;
    expect(start).toBe(0);
    expect(latin1(slot.pdf, before, before + 1)).toBe('<');
    expect(latin1(slot.pdf, after - 1, after)).toBe('>');
    expect(after - before).toBe(CONTENTS_BYTES * 2 + 2);
    expect(after + rest).toBe(slot.pdf.length);
    expect(slot.signedBytes().length).toBe(slot.pdf.length - (after - before));
    const written = /\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/.exec(latin1(slot.pdf, pdf.length, slot.pdf.length))!;
    expect(written.slice(1).map(Number)).toEqual([...slot.byteRange]);

    const tail = latin1(slot.pdf, pdf.length, slot.pdf.length);
    const prev = Number(/startxref\s+(\d+)\s+%%EOF\s*$/.exec(latin1(pdf, 0, pdf.length))![1]);
    expect(tail).toContain(`/Prev ${prev}`);
    const startxref = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(tail)![1]);
    expect(latin1(slot.pdf, startxref, startxref + 4)).toBe('xref');
  });

  it('has xref entries of 20 bytes pointing at each appended object', async () => {
    const { doc, pdf } = await saved(1);
    const slot = appendSignatureSlot(doc, pdf, new Date());
    const tail = latin1(slot.pdf, pdf.length, slot.pdf.length);
    const section = tail.slice(tail.indexOf('\nxref\n') + 6, tail.lastIndexOf('trailer'));
    const entries = [...section.matchAll(/(\d+) 1\n(\d{10}) (\d{5}) n\r\n/g)];
    expect(entries.length).toBe(5);
    for (const [, num, offset] of entries) {
      expect(latin1(slot.pdf, Number(offset), Number(offset) + `${num} 0 obj`.length)).toBe(`${num} 0 obj`);
    }
  });

  it('parses back: an invisible /Sig field on page 1 in an AcroForm with SigFlags 3, the signature in Contents', async () => {
    const { doc, pdf } = await saved(3);
    const slot = appendSignatureSlot(doc, pdf, new Date());
    slot.fill(new Uint8Array([0x30, 0x03, 0x02, 0x01, 0x07]));

    const back = await PDFDocument.load(slot.pdf);
    const form = back.catalog.lookup(PDFName.of('AcroForm'), PDFDict);
    expect(form.lookup(PDFName.of('SigFlags'), PDFNumber).asNumber()).toBe(3);
    const fields = form.lookup(PDFName.of('Fields'), PDFArray);
    expect(fields.size()).toBe(1);
    const widget = fields.lookup(0, PDFDict);
    expect(widget.get(PDFName.of('FT'))).toBe(PDFName.of('Sig'));
    expect(widget.lookup(PDFName.of('F'), PDFNumber).asNumber()).toBe(132);
    expect(widget.lookup(PDFName.of('Rect'), PDFArray).asArray().map((n) => (n as PDFNumber).asNumber())).toEqual([0, 0, 0, 0]);
    const annots = back.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray);
    expect(annots.asArray().some((a) => a instanceof PDFRef && a === fields.get(0))).toBe(true);

    const sig = widget.lookup(PDFName.of('V'), PDFDict);
    expect(sig.get(PDFName.of('SubFilter'))).toBe(PDFName.of('ETSI.CAdES.detached'));
    expect(sig.get(PDFName.of('Filter'))).toBe(PDFName.of('Adobe.PPKLite'));
    const contents = sig.lookup(PDFName.of('Contents'), PDFHexString).asString();
    expect(contents.length).toBe(CONTENTS_BYTES * 2);
    expect(contents.startsWith('3003020107000')).toBe(true);
    expect(sig.lookup(PDFName.of('M'), PDFString).asString()).toMatch(/^D:\d{14}Z$/);
    expect(back.getPageCount()).toBe(3);
  });

  it('keeps the existing annotations and form fields of the document', async () => {
    const doc = await PDFDocument.create();
    const page = doc.addPage();
    doc.getForm().createTextField('existing').addToPage(page);
    const pdf = await doc.save({ useObjectStreams: false });
    const slot = appendSignatureSlot(doc, pdf, new Date());
    const back = await PDFDocument.load(slot.pdf);
    const names = back.getForm().getFields().map((f) => f.getName());
    expect(names).toContain('existing');
    expect(names.length).toBe(2);
    expect(back.getPage(0).node.lookup(PDFName.of('Annots'), PDFArray).size()).toBe(2);
  });

  it('refuses a CMS larger than the reserved Contents', async () => {
    const { doc, pdf } = await saved(1);
    const slot = appendSignatureSlot(doc, pdf, new Date());
    expect(() => slot.fill(new Uint8Array(CONTENTS_BYTES + 1))).toThrow(/65536 are reserved/);
  });
});
