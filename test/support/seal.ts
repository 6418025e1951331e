/**
 * Sealed-PDF checks by tools the project did not write (qpdf, poppler's pdfsig with an NSS
 * database, OpenSSL's cms and ts verifiers), and the organisation chain the tests seal with,
 * made with the OpenSSL CLI as both PKCS#12 flavours.
 */
import { expect } from 'vitest';
import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, rgb } from 'pdf-lib';
import * as pkijs from 'pkijs';
import { AppError } from '../../domain/errors';
import type { SealSettings } from '../../integrations/seal/seal';
import { issue, makeRoot, openssl } from '../stand-ins/tsa/openssl-ca';
import type { TsaStandIn } from '../stand-ins/tsa/server';

export interface OrgChain {
  readonly rootFile: string;
  /** OpenSSL 3 defaults: PBES2, AES-256-CBC, PBKDF2, HMAC-SHA256 MAC. */
  readonly modernP12: Buffer;
  /** `-legacy`: 3DES keys, RC2-40 certificates, SHA-1 MAC. */
  readonly legacyP12: Buffer;
  readonly password: string;
}

export async function makeOrgChain(dir: string): Promise<OrgChain> {
  const root = await makeRoot(dir, 'seal-root');
  const signer = await issue(dir, root, 'seal-signer', ['keyUsage=critical,digitalSignature,nonRepudiation']);
  const password = 'p12-pass word';
  const exportP12 = async (out: string, extra: string[]) => {
    await openssl(['pkcs12', '-export', ...extra, '-inkey', signer.keyFile, '-in', signer.certFile, '-certfile', root.certFile, '-out', out, '-passout', `pass:${password}`], dir);
    return readFile(join(dir, out));
  };
  return { rootFile: root.certFile, modernP12: await exportP12('modern.p12', []), legacyP12: await exportP12('legacy.p12', ['-legacy']), password };
}

export function sealSettings(tsa: TsaStandIn, org: OrgChain, dataDir: string, overrides: Partial<SealSettings> = {}): SealSettings {
  return {
    'data-dir': dataDir,
    'signatures.trust-mode': 'local',
    'signatures.pkcs12-base64': org.modernP12.toString('base64'),
    'signatures.pkcs12-password': org.password,
    'signatures.dev-chain': false,
    'signatures.tsa-url': tsa.url,
    'signatures.tsa-fallback-urls': [],
    'signatures.tsa-timeout-ms': 30_000,
    ...overrides,
  };
}

const run = async (cmd: string, args: string[]) => {
  try {
    const { stdout, stderr } = await promisify(execFile)(cmd, args, { encoding: 'utf8' });
    return { code: 0, out: `${stdout}${stderr}` };
  } catch (err) {
    const e = err as { code?: number; stdout?: string; stderr?: string };
    return { code: e.code ?? -1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
};

/** An NSS database that trusts `rootFile` for signing, as a desktop validator would. */
async function nssTrusting(dir: string, rootFile: string): Promise<string> {
  const db = join(dir, 'nss');
  await mkdir(db, { recursive: true });
  const created = await run('certutil', ['-N', '--empty-password', '-d', `sql:${db}`]);
  if (created.code !== 0) throw new Error(created.out);
  // pdfsig checks the chain for e-mail signing (NSS's certificateUsageEmailSigner): trust the root for it.
  const added = await run('certutil', ['-A', '-t', 'C,C,C', '-n', 'root', '-i', rootFile, '-d', `sql:${db}`]);
  if (added.code !== 0) throw new Error(added.out);
  return `sql:${db}`;
}

export const pdfsig = (file: string, nssDir: string) => run('pdfsig', ['-nssdir', nssDir, file]);

/** The ByteRange and the DER CMS (its padding cut by the DER length) of the last signature. */
export function signatureOf(pdf: Uint8Array): { byteRange: number[]; cms: Buffer; signed: Buffer } {
  const text = Buffer.from(pdf).toString('latin1');
  const all = [...text.matchAll(/\/ByteRange \[(\d+) (\d+) (\d+) (\d+)\s*\]/g)];
  const byteRange = all[all.length - 1]!.slice(1).map(Number);
  const [, a, b, c] = byteRange as [number, number, number, number];
  const hex = Buffer.from(Buffer.from(pdf.subarray(a + 1, b - 1)).toString('latin1'), 'hex');
  const lengthBytes = hex[1]! & 0x80 ? hex[1]! & 0x7f : 0;
  const length = lengthBytes ? hex.subarray(2, 2 + lengthBytes).readUIntBE(0, lengthBytes) : hex[1]!;
  return { byteRange, cms: hex.subarray(0, 2 + lengthBytes + length), signed: Buffer.concat([pdf.subarray(0, a), pdf.subarray(b, b + c)]) };
}

export interface SealChecks {
  readonly qpdf: { code: number; out: string };
  readonly pdfsig: { code: number; out: string };
  readonly cmsVerify: { code: number; out: string };
  readonly tsVerify: { code: number; out: string };
  /** pdfsig's answer for the same file with one byte flipped inside the signed range. */
  readonly tampered: { code: number; out: string };
}

/** Runs every outside check on `pdf` in `dir`: qpdf, pdfsig (trusting the org root), openssl cms and ts, and pdfsig on a tampered copy. */
export async function checkSealed(pdf: Uint8Array, dir: string, org: OrgChain, tsa: TsaStandIn): Promise<SealChecks> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, 'sealed.pdf');
  await writeFile(file, pdf);
  const nss = await nssTrusting(dir, org.rootFile);
  const { cms, signed, byteRange } = signatureOf(pdf);
  await writeFile(join(dir, 'cms.der'), cms);
  await writeFile(join(dir, 'signed.bin'), signed);

  const signerInfo = new pkijs.SignedData({ schema: pkijs.ContentInfo.fromBER(new Uint8Array(cms)).content }).signerInfos[0]!;
  const token = signerInfo.unsignedAttrs!.attributes.find((a) => a.type === '1.2.840.113549.1.9.16.2.14')!.values[0]!;
  await writeFile(join(dir, 'token.der'), Buffer.from(token.toBER()));
  await writeFile(join(dir, 'signature.bin'), Buffer.from(signerInfo.signature.valueBlock.valueHexView));

  const tamperedPdf = Buffer.from(pdf);
  // The binary comment of the header line: any byte of the signed ranges must count, this one breaks nothing else.
  const at = Buffer.from(pdf).indexOf('\n%') + 2;
  tamperedPdf[at] = tamperedPdf[at]! ^ 0x01;
  await writeFile(join(dir, 'tampered.pdf'), tamperedPdf);

  return {
    qpdf: await run('qpdf', ['--check', file]),
    pdfsig: await pdfsig(file, nss),
    cmsVerify: await run('openssl', ['cms', '-verify', '-binary', '-inform', 'DER', '-in', join(dir, 'cms.der'), '-content', join(dir, 'signed.bin'), '-CAfile', org.rootFile, '-purpose', 'any', '-out', '/dev/null']),
    tsVerify: await run('openssl', ['ts', '-verify', '-in', join(dir, 'token.der'), '-token_in', '-data', join(dir, 'signature.bin'), '-CAfile', tsa.caFile, '-untrusted', tsa.tsaFile]),
    tampered: await pdfsig(join(dir, 'tampered.pdf'), nss),
  };
}

/** What every sealed PDF must show to the outside tools (the issue's "Real parts in tests"). */
export function expectValidSeal(checks: SealChecks) {
  expect(checks.qpdf.code, checks.qpdf.out).toBe(0);
  expect(checks.qpdf.out).toContain('No syntax or stream encoding errors found');
  expect(checks.pdfsig.out).toContain('Signature Type: ETSI.CAdES.detached');
  expect(checks.pdfsig.out).toContain('Total document signed');
  expect(checks.pdfsig.out).toContain('Signature Validation: Signature is Valid.');
  expect(checks.pdfsig.out).toContain('Certificate Validation: Certificate is Trusted.');
  expect(checks.pdfsig.out).toContain('Signing Hash Algorithm: SHA-256');
  expect(checks.cmsVerify.out).toContain('CMS Verification successful');
  expect(checks.cmsVerify.code).toBe(0);
  expect(checks.tsVerify.out).toContain('Verification: OK');
  expect(checks.tsVerify.code).toBe(0);
  expect(checks.tampered.out).toContain('Signature Validation: Digest Mismatch.');
  expect(checks.tampered.out).not.toContain('Signature is Valid');
}

/** A solid `width`×`height` PNG, rasterised by poppler from a one-page PDF. */
export async function solidPng(dir: string, width: number, height: number): Promise<Buffer> {
  const doc = await PDFDocument.create();
  doc.addPage([width, height]).drawRectangle({ x: 0, y: 0, width, height, color: rgb(0.7, 0, 0) });
  const name = join(dir, `mark-${width}x${height}`);
  await writeFile(`${name}.pdf`, await doc.save());
  const made = await run('pdftoppm', ['-png', '-r', '72', '-singlefile', `${name}.pdf`, name]);
  if (made.code !== 0) throw new Error(made.out);
  return readFile(`${name}.png`);
}

/** Page `page` as poppler renders it (its CropBox, 1 pixel per point): the RGB at a top-left-origin point. */
export async function rendered(file: string, page: number): Promise<(x: number, y: number) => [number, number, number]> {
  const prefix = `${file}-p${page}`;
  const made = await run('pdftoppm', ['-cropbox', '-r', '72', '-f', String(page), '-l', String(page), '-singlefile', file, prefix]);
  if (made.code !== 0) throw new Error(made.out);
  const ppm = await readFile(`${prefix}.ppm`);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.subarray(0, 40).toString('latin1'))!;
  const width = Number(header[1]);
  const offset = header[0].length;
  return (x, y) => {
    const i = offset + (Math.round(y) * width + Math.round(x)) * 3;
    return [ppm[i]!, ppm[i + 1]!, ppm[i + 2]!];
  };
}

/** Every word poppler finds on `page`, with its top-left-origin box. */
export async function wordsOn(file: string, page: number): Promise<Array<{ text: string; xMin: number; yMin: number; xMax: number; yMax: number }>> {
  const { out } = await run('pdftotext', ['-bbox', '-f', String(page), '-l', String(page), file, '-']);
  return [...out.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
    xMin: Number(m[1]),
    yMin: Number(m[2]),
    xMax: Number(m[3]),
    yMax: Number(m[4]),
    text: m[5]!,
  }));
}

export const pdfText = async (file: string) => (await run('pdftotext', ['-layout', file, '-'])).out;

/** The AppError a sealing promise is rejected with (failing the test when it resolves or throws anything else). */
export async function sealRejection(p: Promise<unknown>): Promise<AppError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(AppError);
  return err as AppError;
}
