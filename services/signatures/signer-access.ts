// Who a public signing token is. Unknown tokens, tokens of cancelled, completed or expired
// campaigns (expired by time too, before the ceremony's timer writes EXPIRED), of recipients not
// armed yet, and an EMAIL_OTP recipient without a valid access token are one and the same 404.
import type { DbOrTx } from '../../db/client';
import type { SignatureInstanceRow } from '../../db/queries/signature-instances';
import { findSignatureRecipientOtp } from '../../db/queries/signature-recipient-otps';
import { findSignerByTokenHash, type SignatureRecipientRow } from '../../db/queries/signature-recipients';
import { AppError } from '../../domain/errors';
import { hashAccessToken, MAX_ACCESS_TOKEN_LENGTH, sameHash } from '../../domain/forms/otp';
import { expiredByTime } from '../../domain/signatures/campaign-expiry';
import { isLive } from '../../domain/signatures/instance-states';
import { hashSigningToken, MAX_SIGNING_TOKEN_LENGTH } from './recipient-box';

export const signingLinkNotFound = () =>
  new AppError('signing-link-not-found', 'The signing link was not found, or the code or access token is not valid');

export interface Signer {
  row: SignatureInstanceRow;
  recipient: SignatureRecipientRow;
}

/** The recipient and its campaign when the link may be used now (the code step not judged); null otherwise. */
export async function reachableSigner(db: DbOrTx, token: string, now: Date): Promise<Signer | null> {
  if (!token || token.length > MAX_SIGNING_TOKEN_LENGTH) return null;
  const found = await findSignerByTokenHash(db, { tokenHash: hashSigningToken(token) });
  if (!found) return null;
  if (!isLive(found.row.status) || expiredByTime(found.row, now) || found.recipient.status === 'R_WAITING') return null;
  return found;
}

/** The signer of a link, verified by its access token when the recipient's method is EMAIL_OTP; the one 404 otherwise. */
export async function authorizedSigner(db: DbOrTx, token: string, accessToken: string | undefined, now: Date): Promise<Signer> {
  const signer = await reachableSigner(db, token, now);
  if (!signer) throw signingLinkNotFound();
  if (signer.recipient.verify === 'EMAIL_OTP') {
    if (!accessToken || accessToken.length > MAX_ACCESS_TOKEN_LENGTH) throw signingLinkNotFound();
    const otp = await findSignatureRecipientOtp(db, { recipientId: signer.recipient.id });
    if (!otp?.accessTokenHash || !otp.accessExpiresAt || otp.accessExpiresAt.getTime() <= now.getTime()) throw signingLinkNotFound();
    if (!sameHash(hashAccessToken(accessToken), otp.accessTokenHash)) throw signingLinkNotFound();
  }
  return signer;
}
