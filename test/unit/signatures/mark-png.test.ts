// The checks a drawn mark passes before any PNG decoder sees it, at signing and again at the seal:
// pdf-lib's decoder never returns on pixels that do not inflate, so these are what keep a signer's
// upload from holding a process's event loop.
import { deflateSync } from 'node:zlib';
import { PDFDocument, PDFName, PDFRawStream } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { markPngProblem, markPngStructureProblem } from '../../../integrations/seal/mark-png';
import { SealMarkInvalid, stampMarks } from '../../../integrations/seal/stamp';
import { makePng, PNG_SIGNATURE, pngChunk, pngWithHeader } from '../../support/png';

/** A PNG from its IHDR fields and raw (filtered) rows. */
function png(o: { width: number; height: number; depth?: number; colour?: number; interlace?: number; rows?: Buffer; palette?: boolean }) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(o.width, 0);
  ihdr.writeUInt32BE(o.height, 4);
  ihdr[8] = o.depth ?? 8;
  ihdr[9] = o.colour ?? 6;
  ihdr[12] = o.interlace ?? 0;
  const rows = o.rows ?? Buffer.alloc(o.height * (1 + o.width * 4));
  return Buffer.concat([
    PNG_SIGNATURE,
    pngChunk('IHDR', ihdr),
    ...(o.palette ? [pngChunk('PLTE', Buffer.from([0, 0, 0, 255, 255, 255]))] : []),
    pngChunk('IDAT', deflateSync(rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('a mark PNG', () => {
  it('passes when whole and within bounds: RGBA, and a palette image with its palette', async () => {
    expect(await markPngProblem(makePng(120, 40))).toBeNull();
    expect(markPngStructureProblem(png({ width: 8, height: 2, depth: 1, colour: 3, palette: true, rows: Buffer.alloc(2 * 2) }))).toBeNull();
  });

  it.each([
    ['bytes that are no PNG', Buffer.from('GIF89a'), 'not a PNG image'],
    ['a declared 30000 × 30000', pngWithHeader(30000, 30000), 'at most 4096 a side'],
    ['a declared 4096 × 4096 (too many pixels in all)', pngWithHeader(4096, 4096), 'in all'],
    ['pixels that are not deflated', pngWithHeader(40, 20, Buffer.from('not deflated pixels')), 'do not inflate'],
    ['fewer rows than declared', png({ width: 10, height: 10, rows: Buffer.alloc(5 * 41) }), 'do not inflate'],
    ['more pixels than declared', png({ width: 10, height: 10, rows: Buffer.alloc(20 * 41) }), 'do not inflate'],
    ['a row filter beyond 4', png({ width: 10, height: 2, rows: Buffer.concat([Buffer.alloc(41), Buffer.from([9]), Buffer.alloc(40)]) }), 'unknown filter'],
    ['an interlaced image', png({ width: 10, height: 2, interlace: 1 }), 'interlaced'],
    ['a bit depth RGBA does not have', png({ width: 10, height: 2, depth: 4 }), 'not a valid PNG header'],
    ['a palette image without its palette', png({ width: 8, height: 2, depth: 1, colour: 3, rows: Buffer.alloc(4) }), 'without its palette'],
    ['a chunk whose CRC is wrong', Buffer.concat([makePng().subarray(0, 30), Buffer.from([0xff]), makePng().subarray(31)]), 'fails its CRC'],
    ['a file cut short', makePng().subarray(0, 60), 'runs past the end'],
  ])('refuses %s', async (_, bytes, problem) => {
    expect(await markPngProblem(bytes)).toContain(problem);
  });

  it('fails the seal with SealMarkInvalid, never reaching the decoder, for a stored mark that does not inflate', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const mark = { type: 'SIGNATURE' as const, page: 1, x: 10, y: 10, w: 100, h: 40, png: pngWithHeader(40, 20, Buffer.from('not deflated pixels')) };
    await expect(stampMarks(doc, [mark])).rejects.toBeInstanceOf(SealMarkInvalid);
  });

  it('embeds one image for a mark that fills many fields', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 5; i++) doc.addPage();
    const initials = makePng(30, 20);
    await stampMarks(doc, [1, 2, 3, 4, 5].map((page) => ({ type: 'INITIALS' as const, page, x: 10, y: 10, w: 40, h: 20, png: Buffer.from(initials) })));
    const saved = await PDFDocument.load(await doc.save());
    // An RGBA PNG is an image XObject with its alpha as a soft mask: count the images that have one.
    const images = saved.context
      .enumerateIndirectObjects()
      .filter(([, o]) => o instanceof PDFRawStream && o.dict.get(PDFName.of('Subtype')) === PDFName.of('Image') && o.dict.has(PDFName.of('SMask')));
    expect(images).toHaveLength(1);
  });
});
