// Where the sealing key comes from: both PKCS#12 flavours OpenSSL writes, a wrong password, the
// development chain when none is set, and the trust mode that is not built.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { PDFDocument } from 'pdf-lib';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../../domain/errors';
import type { SealRequest } from '../../../domain/signatures/seal-contract';
import { DEV_CHAIN_DIR } from '../../../integrations/seal/dev-chain';
import { createSealer } from '../../../integrations/seal/seal';
import { startTsa, type TsaStandIn } from '../../stand-ins/tsa/server';
import { checkSealed, makeOrgChain, sealSettings, sealRejection, type OrgChain } from '../../support/seal';

let dir: string;
let tsa: TsaStandIn;
let org: OrgChain;
let req: SealRequest;
const silent = pino({ level: 'silent' });

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seal-keys-'));
  [tsa, org] = await Promise.all([startTsa(), makeOrgChain(dir)]);
  const doc = await PDFDocument.create();
  doc.addPage();
  req = { instanceId: 'i-1', sourcePdf: await doc.save(), title: 'Keys', marks: [], signers: [], events: [] };
});
afterAll(async () => {
  await tsa?.stop();
  await rm(dir, { recursive: true, force: true });
});

describe('seal keys and trust modes', () => {
  it.each([
    ['OpenSSL 3 defaults (PBES2, AES-256-CBC, HMAC-SHA256 MAC)', () => org.modernP12],
    ['-legacy (3DES keys, RC2-40 certificates, SHA-1 MAC)', () => org.legacyP12],
  ])('loads a PKCS#12 made with %s and seals a PDF pdfsig trusts', async (flavour, p12) => {
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir, { 'signatures.pkcs12-base64': p12().toString('base64') }), logger: silent });
    const checks = await checkSealed((await sealer(req)).pdf, join(dir, flavour.slice(0, 6)), org, tsa);
    expect(checks.pdfsig.out).toContain('Signature Validation: Signature is Valid.');
    expect(checks.pdfsig.out).toContain('Certificate Validation: Certificate is Trusted.');
    expect(checks.pdfsig.out).toContain('Signer Certificate Common Name: seal-signer');
    expect(checks.cmsVerify.code, checks.cmsVerify.out).toBe(0);
  });

  it('answers signing-key-unreadable (503) for a wrong password or bytes that are not PKCS#12, without echoing them', async () => {
    for (const overrides of [{ 'signatures.pkcs12-password': 'not-the-password-7f3a' }, { 'signatures.pkcs12-base64': Buffer.from('not a pfx').toString('base64') }]) {
      const sealer = createSealer({ settings: sealSettings(tsa, org, dir, overrides), logger: silent });
      const err = await sealRejection(sealer(req));
      expect(err.code).toBe('signing-key-unreadable');
      expect(err.status).toBe(503);
      expect(err.detail).not.toContain('not-the-password-7f3a');
      expect(err.detail).not.toContain(org.password);
    }
  });

  it('answers signing-key-unreadable (503) when the signing certificate is expired or not yet valid at the seal, and asks no authority', async () => {
    const day = 24 * 3600 * 1000;
    const before = tsa.requests();
    for (const offset of [-2 * day, 30 * day]) {
      const sealer = createSealer({ settings: sealSettings(tsa, org, dir), logger: silent, clock: () => new Date(Date.now() + offset) });
      const err = await sealRejection(sealer(req));
      expect(err.code).toBe('signing-key-unreadable');
      expect(err.detail).toMatch(/the signing certificate is valid from .* to .*, not at /);
    }
    expect(tsa.requests()).toBe(before);
  });

  it('answers trust-mode-not-available (501) in qtsp mode and asks no authority', async () => {
    const before = tsa.requests();
    const sealer = createSealer({ settings: sealSettings(tsa, org, dir, { 'signatures.trust-mode': 'qtsp' }), logger: silent });
    const err = await sealRejection(sealer(req));
    expect(err.code).toBe('trust-mode-not-available');
    expect(err.status).toBe(501);
    expect(tsa.requests()).toBe(before);
  });

  it('without a PKCS#12 and without signatures.dev-chain every seal fails closed (503 signing-key-unreadable), generating nothing', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'seal-nokey-'));
    const before = tsa.requests();
    const err = await createSealer({ settings: sealSettings(tsa, org, dataDir, { 'signatures.pkcs12-base64': undefined }), logger: silent })(req).catch((e: unknown) => e as AppError);
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe('signing-key-unreadable');
    expect((err as AppError).status).toBe(503);
    await expect(stat(join(dataDir, DEV_CHAIN_DIR))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(tsa.requests()).toBe(before);
  });

  it('with signatures.dev-chain (npm start) and no PKCS#12 generates one development chain under the data directory, says it is not for production, and reuses it', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'seal-dev-'));
    const lines: string[] = [];
    const logger = pino(new Writable({ write: (c, _e, done) => (lines.push(String(c)), done()) }));
    const settings = sealSettings(tsa, org, dataDir, { 'signatures.pkcs12-base64': undefined, 'signatures.dev-chain': true });
    const first = await createSealer({ settings, logger })(req);
    const second = await createSealer({ settings, logger })(req);

    const chainDir = join(dataDir, DEV_CHAIN_DIR);
    expect((await stat(join(chainDir, 'chain.json'))).mode & 0o777).toBe(0o600);
    const warnings = lines.map((l) => JSON.parse(l)).filter((l) => l.level === 40);
    expect(warnings.length).toBe(2);
    expect(warnings[0].msg).toContain('not for production');
    expect(warnings.map((w) => w.generated)).toEqual([true, false]);
    expect(lines.join('')).not.toContain('PRIVATE KEY');

    const devRoot = { ...org, rootFile: join(chainDir, 'root.pem') };
    for (const [i, result] of [first, second].entries()) {
      const checks = await checkSealed(result.pdf, join(dataDir, `check-${i}`), devRoot, tsa);
      expect(checks.pdfsig.out).toContain('Signature Validation: Signature is Valid.');
      expect(checks.pdfsig.out).toContain('Certificate Validation: Certificate is Trusted.');
      expect(checks.cmsVerify.code, checks.cmsVerify.out).toBe(0);
    }

    // The development signing certificate carries what document-signature validators expect.
    const stored = JSON.parse(await readFile(join(chainDir, 'chain.json'), 'utf8')) as { certsPem: string[] };
    const { stdout } = await new Promise<{ stdout: string }>((resolve, reject) => {
      const child = execFile('openssl', ['x509', '-noout', '-text'], (err, out) => (err ? reject(err) : resolve({ stdout: out })));
      child.stdin!.end(stored.certsPem[0]);
    });
    expect(stdout).toMatch(/X509v3 Key Usage: critical\s+Digital Signature, Non Repudiation/);
    expect(stdout).toMatch(/X509v3 Basic Constraints: critical\s+CA:FALSE/);
    await rm(dataDir, { recursive: true, force: true });
  });
});
