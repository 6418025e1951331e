// EMAIL_OTP for signing links, with the forms' one-time-code rules (docs/forms.md): a 6-digit code
// e-mailed on request (cooldown, TTL), verified in constant time within an attempt cap, then an
// access token (SHA-256 stored) the session and the signature need. Every refusal is the one 404.
import { findSignatureRecipientOtp, issueSignatureRecipientOtp, updateSignatureRecipientOtp } from '../../db/queries/signature-recipient-otps';
import { codeLimits, hashCode, judgeCode, newCode, newSalt } from '../../domain/forms/otp';
import type { ClientContext } from '../../domain/net/client-context';
import type { CampaignDeps } from './campaign-deps';
import { deliverSigningCode } from './ceremony-mail';
import { recordEvent } from './instance-events';
import { recipientBox } from './recipient-box';
import { campaignTitle } from './recipient-delivery';
import { reachableSigner, signingLinkNotFound } from './signer-access';

const now = (deps: CampaignDeps) => deps.clock?.() ?? new Date();

/** Answers nothing either way; a code (and its mail) only for a reachable EMAIL_OTP recipient past the cooldown. */
export async function requestSigningCode(deps: CampaignDeps, token: string): Promise<void> {
  const signer = await reachableSigner(deps.db, token, now(deps));
  if (!signer || signer.recipient.verify !== 'EMAIL_OTP' || signer.recipient.status === 'R_SIGNED') return;
  const { row, recipient } = signer;
  const s = deps.settings;
  const code = newCode();
  const salt = newSalt();
  const at = now(deps);
  const expiresAt = new Date(at.getTime() + s['forms.otp.ttl-minutes'] * 60_000);
  const cooldownEnds = new Date(at.getTime() - s['forms.otp.resend-cooldown-seconds'] * 1000);
  const issued = await issueSignatureRecipientOtp(deps.db, {
    recipientId: recipient.id,
    tenantId: row.tenantId,
    codeHash: hashCode(code, salt),
    codeSalt: salt,
    expiresAt,
    sentAt: at,
    cooldownEnds,
  });
  if (!issued) return;
  const box = recipientBox(s);
  const to = { email: box.open(row.id, recipient.signerId, 'email', recipient.emailSealed), name: box.open(row.id, recipient.signerId, 'name', recipient.nameSealed) };
  // Not awaited: the answer takes as long whether the token exists or not.
  void campaignTitle(deps, row)
    .then((title) => deliverSigningCode(deps, { row, to, title, code, ttlMinutes: s['forms.otp.ttl-minutes'] }))
    .catch((err: unknown) => deps.logger?.warn({ instanceId: row.id, error: (err as Error).name }, 'signing code e-mail not sent'));
}

export async function verifySigningCode(deps: CampaignDeps, token: string, code: string, client: ClientContext): Promise<{ accessToken: string; expiresAt: string }> {
  const signer = await reachableSigner(deps.db, token, now(deps));
  if (!signer || signer.recipient.verify !== 'EMAIL_OTP') throw signingLinkNotFound();
  const { row, recipient } = signer;
  const verdict = await deps.db.transaction(async (tx) => {
    const otp = await findSignatureRecipientOtp(tx, { recipientId: recipient.id, forUpdate: true });
    const judged = judgeCode(otp ?? undefined, code, now(deps), codeLimits(deps.settings));
    if (judged.outcome === 'none') return null;
    await updateSignatureRecipientOtp(tx, { id: otp!.id, changes: judged.changes });
    if (judged.outcome === 'wrong') return null;
    await recordEvent(tx, recipientBox(deps.settings), { tenantId: row.tenantId, instanceId: row.id, action: 'otp_verified', signerId: recipient.signerId, client });
    return { accessToken: judged.accessToken, expiresAt: judged.expiresAt.toISOString() };
  });
  if (!verdict) throw signingLinkNotFound();
  return verdict;
}
