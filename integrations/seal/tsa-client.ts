import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../../domain/errors';
import type { Timestamper } from './cms';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const TST_INFO = '1.2.840.113549.1.9.16.1.4';
/** A token is a few KB; anything far larger is not an RFC 3161 answer. */
const MAX_RESPONSE_BYTES = 1024 * 1024;
/**
 * Bound on the whole walk over the authorities: the sealing activity has two minutes
 * (workflows/signature-ceremony.ts) and must still store the sealed file and record it, so an
 * authority is not asked once this is spent, whatever `timeoutMs` times the number of authorities.
 */
export const TSA_TOTAL_BUDGET_MS = 90_000;

export interface TsaOptions {
  /** Tried in order until one gives a valid token. */
  readonly urls: readonly string[];
  /** Bound on each authority's whole exchange (connect, answer, body). */
  readonly timeoutMs: number;
  /** Bound on all the exchanges together; TSA_TOTAL_BUDGET_MS unless given (tests). */
  readonly totalBudgetMs?: number;
}

const equal = (a: ArrayBuffer | Uint8Array, b: ArrayBuffer | Uint8Array) => Buffer.from(a as Uint8Array).equals(Buffer.from(b as Uint8Array));

function request(digest: Buffer, nonce: Buffer): Uint8Array<ArrayBuffer> {
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256, algorithmParams: new asn1js.Null() }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  return new Uint8Array(req.toSchema().toBER());
}

/**
 * The token of a granted answer whose TSTInfo echoes our nonce and imprint, and whose signature
 * verifies with the certificate it carries (asked for with certReq); throws otherwise, so an
 * answer that is not a usable timestamp moves on to the next authority instead of being sealed in.
 */
async function tokenOf(answer: Uint8Array, data: Uint8Array, digest: Buffer, nonce: Buffer): Promise<Uint8Array> {
  const resp = pkijs.TimeStampResp.fromBER(new Uint8Array(answer));
  const status = resp.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) throw new Error(`status ${status}`);
  if (!resp.timeStampToken) throw new Error('granted without a token');
  const signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
  const eContent = signed.encapContentInfo.eContent;
  if (signed.encapContentInfo.eContentType !== TST_INFO || !eContent) throw new Error('token without TSTInfo');
  const info = pkijs.TSTInfo.fromBER(eContent.getValue());
  // A positive INTEGER may gain a leading zero byte; compare as numbers.
  const echoed = info.nonce ? BigInt(`0x${Buffer.from(info.nonce.valueBlock.valueHexView).toString('hex') || '0'}`) : undefined;
  if (echoed !== BigInt(`0x${nonce.toString('hex')}`)) throw new Error('nonce not echoed');
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256 || !equal(info.messageImprint.hashedMessage.valueBlock.valueHexView, digest)) {
    throw new Error('message imprint differs');
  }
  if (!signed.certificates?.length) throw new Error('certificate not included (certReq ignored)');
  // pkijs checks a TSTInfo's imprint against the stamped data itself, so it is handed the data too.
  const verified = await signed.verify({ signer: 0, data: Uint8Array.from(data).buffer, checkChain: false }).catch(() => false);
  if (!verified) throw new Error('token signature does not verify');
  return new Uint8Array(resp.timeStampToken.toSchema().toBER());
}

/** The body, read until it ends or passes the cap: a reply without a length cannot stream on past it. */
async function readCapped(res: Response): Promise<Uint8Array> {
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) throw new Error('answer too large');
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (!res.body) return new Uint8Array();
  const reader = res.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks);
    size += value.length;
    if (size > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new Error('answer too large');
    }
    chunks.push(value);
  }
}

async function ask(url: string, query: Uint8Array<ArrayBuffer>, signal: AbortSignal): Promise<Uint8Array> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: query,
    signal,
  });
  if (!res.ok) {
    await res.body?.cancel();
    throw new Error(`HTTP ${res.status}`);
  }
  return readCapped(res);
}

/** The host of a configured URL for a reason string (settings check the list, tests may not). */
function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'invalid URL';
  }
}

/**
 * RFC 3161 over HTTP: SHA-256 imprint of the data, certReq, a fresh 64-bit nonce. Each authority
 * is tried in order; the first valid token wins. None: AppError `timestamp-unavailable` naming
 * why each failed (hosts only), so the seal fails rather than going out without a timestamp.
 */
export function createTimestamper(options: TsaOptions): Timestamper {
  return async (data) => {
    const digest = createHash('sha256').update(data).digest();
    const budget = AbortSignal.timeout(options.totalBudgetMs ?? TSA_TOTAL_BUDGET_MS);
    const reasons: string[] = [];
    for (const url of options.urls) {
      if (budget.aborted) {
        reasons.push(`${hostOf(url)}: not asked (time budget spent)`);
        continue;
      }
      const nonce = randomBytes(8);
      nonce[0] = (nonce[0]! & 0x7f) | 0x40; // positive, minimal DER (no leading zero byte)
      try {
        const signal = AbortSignal.any([AbortSignal.timeout(options.timeoutMs), budget]);
        return await tokenOf(await ask(url, request(digest, nonce), signal), data, digest, nonce);
      } catch (err) {
        const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
        reasons.push(`${hostOf(url)}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
      }
    }
    throw new AppError('timestamp-unavailable', `no timestamp authority gave a valid token (${reasons.join('; ') || 'none configured'})`);
  };
}
