import { createHash, X509Certificate } from 'node:crypto';
import { resolve } from 'node:path';
import { PDFDocument } from 'pdf-lib';
import type { Logger } from 'pino';
import { AppError } from '../../domain/errors';
import type { SealPdf } from '../../domain/signatures/seal-contract';
import type { Settings } from '../../domain/settings';
import { buildCms, type SigningIdentity, type Timestamper } from './cms';
import { appendCompletionPages } from './completion-page';
import { loadOrCreateDevChain } from './dev-chain';
import { appendSignatureSlot } from './incremental';
import { loadPkcs12 } from './pkcs12';
import { stampMarks } from './stamp';
import { createTimestamper } from './tsa-client';

export type SealSettings = Pick<
  Settings,
  | 'data-dir'
  | 'signatures.trust-mode'
  | 'signatures.pkcs12-base64'
  | 'signatures.pkcs12-password'
  | 'signatures.dev-chain'
  | 'signatures.tsa-url'
  | 'signatures.tsa-fallback-urls'
  | 'signatures.tsa-timeout-ms'
>;

export interface SealerDeps {
  readonly settings: SealSettings;
  readonly logger: Pick<Logger, 'warn'>;
  /** The seal's time (tests move it); the machine's clock otherwise. */
  readonly clock?: () => Date;
}

/**
 * The identity is read once per process, and a certificate that expired since (or is not valid
 * yet) would seal files every validator rejects: checked on every seal, and failed like a key
 * that cannot be read, so the ceremony retries until the operator renews it.
 */
function assertCurrent(identity: SigningIdentity, now: Date): void {
  const leaf = new X509Certificate(identity.chain[0]!);
  if (now >= new Date(leaf.validFrom) && now <= new Date(leaf.validTo)) return;
  throw new AppError('signing-key-unreadable', `the signing certificate is valid from ${leaf.validFrom} to ${leaf.validTo}, not at ${now.toISOString()}`);
}

const sha256 = (data: Uint8Array) => createHash('sha256').update(data).digest();

/** The organisation's identity, read on first use: the PKCS#12 setting, else the development chain. */
function identitySource({ settings, logger }: SealerDeps): () => Promise<SigningIdentity> {
  let loading: Promise<SigningIdentity> | undefined;
  const load = async (): Promise<SigningIdentity> => {
    const p12 = settings['signatures.pkcs12-base64'];
    if (p12 !== undefined) return loadPkcs12(Buffer.from(p12, 'base64'), settings['signatures.pkcs12-password']);
    if (!settings['signatures.dev-chain']) {
      throw new AppError('signing-key-unreadable', 'signatures.pkcs12-base64 is not set (the development chain is used only with signatures.dev-chain, which npm start turns on)');
    }
    const dev = await loadOrCreateDevChain(resolve(settings['data-dir']));
    logger.warn(
      { file: dev.file, generated: dev.generated },
      `sealing with the DEVELOPMENT signing chain in ${dev.file}: not for production, validators will not trust it; set SIGNATURES_PKCS12_BASE64`,
    );
    return dev.identity;
  };
  return () => {
    // A failed load (unreadable file, wrong password) is tried again on the next seal.
    loading ??= load().catch((err: unknown) => {
      loading = undefined;
      throw err;
    });
    return loading;
  };
}

/**
 * The production SealPdf: stamps the marks, appends the Certificate of Completion, saves, then
 * signs in an incremental update (PAdES, CAdES-detached CMS with an RFC 3161 timestamp).
 */
export function createSealer(deps: SealerDeps): SealPdf {
  const { settings } = deps;
  const identity = identitySource(deps);
  const timestamper = createTimestamper({
    urls: [settings['signatures.tsa-url'], ...settings['signatures.tsa-fallback-urls']],
    timeoutMs: settings['signatures.tsa-timeout-ms'],
  });

  return async (request) => {
    if (settings['signatures.trust-mode'] !== 'local') {
      throw new AppError('trust-mode-not-available', `signatures.trust-mode=${settings['signatures.trust-mode']} is not available; use local`);
    }
    const now = deps.clock?.() ?? new Date();
    const signing = await identity();
    assertCurrent(signing, now);
    const sourceSha256 = sha256(request.sourcePdf).toString('hex');
    const doc = await PDFDocument.load(request.sourcePdf, { updateMetadata: false });
    await stampMarks(doc, request.marks);
    await appendCompletionPages(doc, request, sourceSha256);
    const saved = await doc.save({ useObjectStreams: false });
    const slot = appendSignatureSlot(doc, saved, now);

    let tsaMillis = 0;
    const timed: Timestamper = async (signature) => {
      const started = performance.now();
      try {
        return await timestamper(signature);
      } finally {
        tsaMillis += performance.now() - started;
      }
    };
    slot.fill(await buildCms(sha256(slot.signedBytes()), signing, timed));
    return { pdf: slot.pdf, sourceSha256, tsaMillis };
  };
}
