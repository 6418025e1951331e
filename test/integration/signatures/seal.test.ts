// The seal as outside validators see it: qpdf, poppler's pdfsig (trusting the test root), OpenSSL's
// cms and ts verifiers, and poppler's renderer and text extractor for where the marks landed.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SealAuditEvent, SealRequest } from '../../../domain/signatures/seal-contract';
import { createSealer } from '../../../integrations/seal/seal';
import { startTsa, type TsaStandIn } from '../../stand-ins/tsa/server';
import { checkSealed, expectValidSeal, makeOrgChain, pdfText, rendered, sealSettings, solidPng, wordsOn, type OrgChain } from '../../support/seal';

let dir: string;
let tsa: TsaStandIn;
let org: OrgChain;
let png: Buffer;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seal-'));
  [tsa, org] = await Promise.all([startTsa(), makeOrgChain(dir)]);
  png = await solidPng(dir, 60, 20);
});
afterAll(async () => {
  await tsa?.stop();
  await rm(dir, { recursive: true, force: true });
});

/** Page 1 Letter; page 2 with a CropBox inset from its MediaBox (origin 50,100), as scanners write. */
async function sourcePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).drawText('Employment contract', { x: 72, y: 740, size: 14 });
  const second = doc.addPage([600, 800]);
  second.setCropBox(50, 100, 500, 600);
  return doc.save();
}

const event = (i: number, over: Partial<SealAuditEvent> = {}): SealAuditEvent => ({
  at: new Date(Date.UTC(2026, 10, 23, 9, 0, i)).toISOString(),
  action: i % 2 ? 'opened' : 'signed',
  signerId: 'employee',
  ip: `203.0.113.${i % 250}`,
  userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/131',
  ipRisk: 'public',
  geo: 'DE',
  ...over,
});

const request = async (over: Partial<SealRequest> = {}): Promise<SealRequest> => ({
  instanceId: '4b0c3f1e-6f0a-4bb4-9d59-1f6a1a0c7e11',
  sourcePdf: await sourcePdf(),
  title: 'Employment contract, version 3',
  marks: [
    { type: 'NAME', text: 'Ada Lovelace', page: 1, x: 72, y: 100, w: 200, h: 20 },
    { type: 'DATE', text: '2026-11-23', page: 1, x: 300, y: 100, w: 100, h: 20 },
    { type: 'TEXT', text: 'Senior analyst', page: 1, x: 72, y: 160, w: 250, h: 18 },
    { type: 'SIGNATURE', typedText: 'Ada Lovelace', page: 1, x: 72, y: 220, w: 220, h: 44 },
    { type: 'SIGNATURE', png, page: 2, x: 100, y: 200, w: 120, h: 40 },
  ],
  signers: [
    { signerId: 'employee', label: 'Employee', name: 'Ada Lovelace', email: 'ada@example.com', signedAt: '2026-11-23T09:00:10.000Z' },
    { signerId: 'manager', label: 'Manager', name: 'Charles Babbage', email: 'charles@example.com', signedAt: '2026-11-23T10:00:00.000Z' },
  ],
  events: [event(1, { ip: '127.0.0.1', ipRisk: 'loopback', geo: null }), event(2)],
  ...over,
});

describe('seal: PAdES signature with an RFC 3161 timestamp', () => {
  it('passes qpdf, pdfsig (trusted, total document, ETSI.CAdES.detached), openssl cms and ts; a flipped signed byte is a digest mismatch', async () => {
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir), logger: silent });
    const req = await request();
    const result = await sealer(req);
    expect(result.sourceSha256).toMatch(/^[0-9a-f]{64}$/);
    expect(result.tsaMillis).toBeGreaterThan(0);
    expect(Buffer.from(result.pdf.subarray(0, req.sourcePdf.length)).equals(Buffer.from(req.sourcePdf))).toBe(false);

    expectValidSeal(await checkSealed(result.pdf, join(dir, 'valid'), org, tsa));
  });

  it('draws each mark inside its field, Y flipped and the CropBox origin respected', async () => {
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir), logger: silent });
    const req = await request();
    const file = join(dir, 'marks.pdf');
    await writeFile(file, (await sealer(req)).pdf);

    const words = await wordsOn(file, 1);
    const inside = (text: string, box: { x: number; y: number; w: number; h: number }) => {
      const found = words.filter(
        (w) =>
          text.split(' ').includes(w.text) &&
          w.xMin >= box.x - 0.5 &&
          w.xMax <= box.x + box.w + 0.5 &&
          w.yMin >= box.y - 0.5 &&
          w.yMax <= box.y + box.h + 0.5,
      );
      expect(found.map((w) => w.text), `${text} inside its field on page 1`).toEqual(text.split(' '));
    };
    for (const mark of req.marks.filter((m) => m.page === 1)) {
      inside('text' in mark ? mark.text : (mark as { typedText: string }).typedText, mark);
    }

    // Page 2: the PNG (60×20) scaled to its 120×40 field, drawn in the visible (cropped) page.
    const pixel = await rendered(file, 2);
    const red = ([r, g, b]: number[]) => r! > 150 && g! < 60 && b! < 60;
    const white = ([r, g, b]: number[]) => r! > 240 && g! > 240 && b! > 240;
    expect(red(pixel(160, 220))).toBe(true);
    expect(red(pixel(103, 203))).toBe(true);
    expect(red(pixel(217, 237))).toBe(true);
    expect(white(pixel(95, 220))).toBe(true);
    expect(white(pixel(225, 220))).toBe(true);
    expect(white(pixel(160, 196))).toBe(true);
    expect(white(pixel(160, 244))).toBe(true);
  });

  it('appends the Certificate of Completion: instance, source SHA-256, signers, every event', async () => {
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir), logger: silent });
    const req = await request();
    const result = await sealer(req);
    const file = join(dir, 'certificate.pdf');
    await writeFile(file, result.pdf);
    const sealed = await PDFDocument.load(result.pdf);
    expect(sealed.getPageCount()).toBe(3);
    const text = await pdfText(file);
    expect(text).toContain('Certificate of Completion');
    expect(text).toContain(req.instanceId);
    expect(text).toContain(result.sourceSha256);
    expect(text).toContain('Employment contract, version 3');
    for (const s of req.signers) {
      expect(text).toContain(s.email);
      expect(text).toContain(s.signedAt);
    }
    expect(text).toContain('IP 127.0.0.1, IP risk loopback, geo -');
    expect(text).toContain('IP 203.0.113.2, IP risk public, geo DE');
    expect(text).toContain('Chrome/131');
  });

  it('runs the certificate over several pages for many events, and substitutes what WinAnsi cannot encode', async () => {
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir), logger: silent });
    const events = Array.from({ length: 150 }, (_, i) => event(i, { userAgent: i === 0 ? 'Агент 浏览器 😀' : 'curl/8.5' }));
    const req = await request({
      events,
      title: 'Договор 合同 Zoë',
      signers: [{ signerId: 'employee', label: 'Сотрудник', name: 'Иван Петров 王小明 Łukasz Ödön', email: 'ivan@example.com', signedAt: '2026-11-23T09:00:10.000Z' }],
      marks: [
        { type: 'NAME', text: 'Иван Петров', page: 1, x: 72, y: 100, w: 200, h: 20 },
        { type: 'SIGNATURE', typedText: '王小明', page: 1, x: 72, y: 220, w: 220, h: 44 },
      ],
    });
    const result = await sealer(req);
    const file = join(dir, 'many.pdf');
    await writeFile(file, result.pdf);
    expect((await PDFDocument.load(result.pdf)).getPageCount()).toBeGreaterThanOrEqual(2 + 3);
    const text = await pdfText(file);
    expect(text).toContain('Zoë');
    expect(text).toContain('?ukasz Ödön');
    expect(text).toContain('???? ?????? ??? ?ukasz Ödön');
    expect(text).toContain(events[149]!.at);
    const checks = await checkSealed(result.pdf, join(dir, 'many'), org, tsa);
    expect(checks.pdfsig.out).toContain('Signature Validation: Signature is Valid.');
    expect(checks.qpdf.code, checks.qpdf.out).toBe(0);
  });
});
