// The ceremony's e-mails: the signing link (when a recipient is armed), reminders, the EMAIL_OTP
// code, and the completion notice with the signed PDF's download link. Rendered from their
// templates (integrations/mail/templates/, text and HTML) and sent best effort through the forms'
// mailer (never a failed caller); log lines carry ids and error codes only.
import type { SignatureInstanceRow } from '../../db/queries/signature-instances';
import { signingCodeMail } from '../../integrations/mail/templates/signing-code-mail';
import { signingCompletionMail } from '../../integrations/mail/templates/signing-completion-mail';
import { signingInvitationMail } from '../../integrations/mail/templates/signing-invitation-mail';
import { signingReminderMail } from '../../integrations/mail/templates/signing-reminder-mail';
import { deliver, mailFrame, type Delivery } from '../forms/outbound-mail';
import type { CampaignDeps } from './campaign-deps';

interface To {
  email: string;
  name?: string;
}

const messageTo = (to: To, mail: { subject: string; text: string; html: string }) => ({ to: { address: to.email, name: to.name }, ...mail });

export async function deliverSigningLink(
  deps: CampaignDeps,
  p: { row: SignatureInstanceRow; to: To & { name: string }; title: string; link: string; reminder: boolean },
): Promise<Delivery> {
  const content = { recipientName: p.to.name, title: p.title, link: p.link, expiresAt: p.row.expiresAt, timeZone: p.row.timeZone };
  const frame = await mailFrame(deps, p.row.tenantId);
  const mail = p.reminder ? signingReminderMail(content, frame) : signingInvitationMail(content, frame);
  return deliver(deps, p.row.id, messageTo(p.to, mail), p.reminder ? 'signing reminder' : 'signing link');
}

export async function deliverSigningCode(deps: CampaignDeps, p: { row: SignatureInstanceRow; to: To & { name: string }; title: string; code: string; ttlMinutes: number }): Promise<Delivery> {
  const mail = signingCodeMail({ recipientName: p.to.name, title: p.title, code: p.code, ttlMinutes: p.ttlMinutes }, await mailFrame(deps, p.row.tenantId));
  return deliver(deps, p.row.id, messageTo(p.to, mail), 'signing code');
}

export async function deliverSigningCopy(
  deps: CampaignDeps,
  p: { row: SignatureInstanceRow; to: To; title: string; link: string; expiresAt: Date; role: 'signer' | 'sender' },
): Promise<Delivery> {
  const content = { recipientName: p.to.name, title: p.title, link: p.link, expiresAt: p.expiresAt, timeZone: p.row.timeZone, role: p.role };
  return deliver(deps, p.row.id, messageTo(p.to, signingCompletionMail(content, await mailFrame(deps, p.row.tenantId))), `signed copy (${p.role})`);
}
