// The signer leaves with their copy (issue 22 §2). When a campaign is SEALED, the ceremony's
// closing step gives every signer, and the sender who started it (when the user directory knows
// their e-mail), a download link of the sealed PDF with a token of its own, expiring after
// `signatures.copy-link-days`, and mails it once (`delivery_status` records the outcome; a retried
// step mails only the links not mailed yet). The download answers the signing links' one 404 for
// an unknown or expired token and for a campaign that is not sealed.
import { findUserContact } from '../../db/queries/mail-parties';
import {
  ensureSignatureCopyLinks,
  findSignatureCopyLinkByTokenHash,
  listSignatureCopyLinks,
  recordSignatureCopyDelivery,
  type NewSignatureCopyLink,
} from '../../db/queries/signature-copy-links';
import { findSignatureInstance, type SignatureInstanceRow } from '../../db/queries/signature-instances';
import { findSignerByTokenHash, listSignatureRecipients } from '../../db/queries/signature-recipients';
import { expiredByTime } from '../../domain/signatures/campaign-expiry';
import { isLive } from '../../domain/signatures/instance-states';
import { openDocumentContent, type DocumentContent } from '../documents/document-content';
import type { CampaignDeps, SigningDocs } from './campaign-deps';
import { ceremonyCaller } from './ceremony-documents';
import { deliverSigningCopy } from './ceremony-mail';
import { hashSigningToken, MAX_SIGNING_TOKEN_LENGTH, newSigningToken, recipientBox, signedCopyUrl, type RecipientBox } from './recipient-box';
import { campaignTitle } from './recipient-delivery';
import { signingLinkNotFound } from './signer-access';

const now = (deps: CampaignDeps) => deps.clock?.() ?? new Date();

const isSealed = (row: SignatureInstanceRow) => row.status === 'COMPLETED' && row.sealStatus === 'SEALED' && row.sealedDocumentId !== null;

function newLink(box: RecipientBox, row: SignatureInstanceRow, signerId: string | null, expiresAt: Date): NewSignatureCopyLink {
  const token = newSigningToken();
  return {
    instanceId: row.id,
    tenantId: row.tenantId,
    party: signerId === null ? 'sender' : 'signer',
    signerId,
    tokenHash: hashSigningToken(token),
    tokenSealed: box.seal(row.id, signerId, 'copy-token', token),
    expiresAt,
  };
}

/** The sender's address: the campaign's creator as the user directory knows them (a workflow that started it has none). */
async function senderOf(deps: CampaignDeps, row: SignatureInstanceRow): Promise<{ email: string; name?: string } | null> {
  const contact = await findUserContact(deps.db, { userId: row.createdBy });
  return contact?.email ? { email: contact.email, name: contact.name ?? undefined } : null;
}

/** Makes the links a sealed campaign lacks and mails each link not mailed yet; answers how many were mailed now. */
export async function sendSignedCopies(deps: CampaignDeps, tenantId: string, instanceId: string): Promise<number> {
  const row = await findSignatureInstance(deps.db, { tenantId, id: instanceId });
  if (!row || !isSealed(row)) return 0;
  const box = recipientBox(deps.settings);
  const recipients = await listSignatureRecipients(deps.db, { instanceId });
  const sender = await senderOf(deps, row);
  const have = new Set((await listSignatureCopyLinks(deps.db, { instanceId })).map((l) => l.signerId));
  const expiresAt = new Date(now(deps).getTime() + deps.settings['signatures.copy-link-days'] * 86_400_000);
  const holders = [...recipients.map((r) => r.signerId), ...(sender ? [null] : [])].filter((h) => !have.has(h));
  await ensureSignatureCopyLinks(deps.db, { rows: holders.map((h) => newLink(box, row, h, expiresAt)) });

  const unmailed = (await listSignatureCopyLinks(deps.db, { instanceId })).filter((l) => l.deliveryStatus === null && (l.party === 'signer' || sender));
  if (unmailed.length === 0) return 0;
  const title = await campaignTitle(deps, row);
  const bySigner = new Map(recipients.map((r) => [r.signerId, r]));
  let mailed = 0;
  for (const link of unmailed) {
    const r = link.signerId === null ? null : bySigner.get(link.signerId);
    const to = r ? { email: box.open(row.id, r.signerId, 'email', r.emailSealed), name: box.open(row.id, r.signerId, 'name', r.nameSealed) } : sender!;
    const url = signedCopyUrl(deps.settings, box.open(row.id, link.signerId, 'copy-token', link.tokenSealed));
    const delivery = await deliverSigningCopy(deps, { row, to, title, link: url, expiresAt: link.expiresAt, role: link.party });
    await recordSignatureCopyDelivery(deps.db, { id: link.id, deliveryStatus: delivery.status, deliveryError: delivery.status === 'FAILED' ? delivery.error : null });
    if (delivery.status === 'SENT') mailed++;
  }
  return mailed;
}

/** What a signer's own signing link shows once they have signed: the wait, or the download of the sealed PDF. */
export type SignedSignerView = { state: 'signed-waiting' } | { state: 'sealed'; downloadUrl: string; expiresAt: Date; timeZone: string };

/**
 * The signed signer's view of their link, or null when the link shows something else (not signed
 * yet) or nothing (the one 404: unknown, cancelled, expired campaign, or an expired copy link).
 */
export async function signedSignerView(deps: CampaignDeps, token: string): Promise<SignedSignerView | null> {
  if (!token || token.length > MAX_SIGNING_TOKEN_LENGTH) return null;
  const found = await findSignerByTokenHash(deps.db, { tokenHash: hashSigningToken(token) });
  if (!found || found.recipient.status !== 'R_SIGNED') return null;
  const { row, recipient } = found;
  if (isLive(row.status)) return expiredByTime(row, now(deps)) ? null : { state: 'signed-waiting' };
  if (row.status !== 'COMPLETED') return null;
  const link = (await listSignatureCopyLinks(deps.db, { instanceId: row.id })).find((l) => l.signerId === recipient.signerId);
  // Sealed but not closed yet, or the seal is still being retried: the mail (and this link) follow.
  if (!isSealed(row) || !link) return { state: 'signed-waiting' };
  if (link.expiresAt.getTime() <= now(deps).getTime()) return null;
  const copyToken = recipientBox(deps.settings).open(row.id, recipient.signerId, 'copy-token', link.tokenSealed);
  return { state: 'sealed', downloadUrl: signedCopyUrl(deps.settings, copyToken), expiresAt: link.expiresAt, timeZone: row.timeZone };
}

/** The sealed PDF of a copy token, streamed from the document store; the signing links' one 404 otherwise. */
export async function openSignedCopy(deps: CampaignDeps, docs: SigningDocs, token: string): Promise<DocumentContent & { filename: string }> {
  if (!token || token.length > MAX_SIGNING_TOKEN_LENGTH) throw signingLinkNotFound();
  const found = await findSignatureCopyLinkByTokenHash(deps.db, { tokenHash: hashSigningToken(token) });
  if (!found || found.link.expiresAt.getTime() <= now(deps).getTime() || !isSealed(found.row)) throw signingLinkNotFound();
  const { row } = found;
  const content = await openDocumentContent(docs.registry, docs.store, ceremonyCaller(row.tenantId, row.id), row.sealedDocumentId!);
  return { ...content, filename: `${(await campaignTitle(deps, row)).replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim() || 'document'} (signed).pdf` };
}
