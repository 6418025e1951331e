import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { AppError } from '../../domain/errors';
import type { Timestamper } from './cms';

const SHA256 = '2.16.840.1.101.3.4.2.1';
/** A token is a few KB; anything far larger is not an RFC 3161 answer. */
const MAX_RESPONSE_BYTES = 1024 * 1024;

export interface TsaOptions {
  /** Tried in order until one gives a valid token. */
  readonly urls: readonly string[];
  /** Bound on each authority's whole exchange (connect, answer, body). */
  readonly timeoutMs: number;
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

/** The token of a granted answer whose TSTInfo echoes our nonce and imprint; throws otherwise. */
function tokenOf(answer: Uint8Array, digest: Buffer, nonce: Buffer): Uint8Array {
  const resp = pkijs.TimeStampResp.fromBER(new Uint8Array(answer));
  const status = resp.status.status;
  if (status !== pkijs.PKIStatus.granted && status !== pkijs.PKIStatus.grantedWithMods) throw new Error(`status ${status}`);
  if (!resp.timeStampToken) throw new Error('granted without a token');
  const signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
  const eContent = signed.encapContentInfo.eContent;
  if (!eContent) throw new Error('token without TSTInfo');
  const info = pkijs.TSTInfo.fromBER(eContent.getValue());
  // A positive INTEGER may gain a leading zero byte; compare as numbers.
  const echoed = info.nonce ? BigInt(`0x${Buffer.from(info.nonce.valueBlock.valueHexView).toString('hex') || '0'}`) : undefined;
  if (echoed !== BigInt(`0x${nonce.toString('hex')}`)) throw new Error('nonce not echoed');
  if (info.messageImprint.hashAlgorithm.algorithmId !== SHA256 || !equal(info.messageImprint.hashedMessage.valueBlock.valueHexView, digest)) {
    throw new Error('message imprint differs');
  }
  return new Uint8Array(resp.timeStampToken.toSchema().toBER());
}

async function ask(url: string, query: Uint8Array<ArrayBuffer>, timeoutMs: number): Promise<Uint8Array> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/timestamp-query', accept: 'application/timestamp-reply' },
    body: query,
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const declared = Number(res.headers.get('content-length') ?? 0);
  if (declared > MAX_RESPONSE_BYTES) throw new Error('answer too large');
  const body = new Uint8Array(await res.arrayBuffer());
  if (body.length > MAX_RESPONSE_BYTES) throw new Error('answer too large');
  return body;
}

/**
 * RFC 3161 over HTTP: SHA-256 imprint of the data, certReq, a fresh 64-bit nonce. Each authority
 * is tried in order; the first valid token wins. None: AppError `timestamp-unavailable` naming
 * why each failed (hosts only), so the seal fails rather than going out without a timestamp.
 */
export function createTimestamper(options: TsaOptions): Timestamper {
  return async (data) => {
    const digest = createHash('sha256').update(data).digest();
    const reasons: string[] = [];
    for (const url of options.urls) {
      const nonce = randomBytes(8);
      nonce[0] = (nonce[0]! & 0x7f) | 0x40; // positive, minimal DER (no leading zero byte)
      try {
        return tokenOf(await ask(url, request(digest, nonce), options.timeoutMs), digest, nonce);
      } catch (err) {
        const cause = (err as Error & { cause?: { code?: string } }).cause?.code;
        reasons.push(`${new URL(url).host}: ${(err as Error).message}${cause ? ` (${cause})` : ''}`);
      }
    }
    throw new AppError('timestamp-unavailable', `no timestamp authority gave a valid token (${reasons.join('; ') || 'none configured'})`);
  };
}
