// The two e-mails of outbound delivery: the link (after a send) and the one-time code, rendered
// from their templates (integrations/mail/templates/, text and HTML). Both are
// best effort (spec rule 6): a failure is answered to the caller, never thrown. Log lines carry the
// instance id and an error code only: the address and name are personal data.
import type { Logger } from 'pino';
import type { DbOrTx } from '../../db/client';
import { findTenantName } from '../../db/queries/mail-parties';
import type { Settings } from '../../domain/settings';
import { senderNameOf, type MailMessage, type Mailer } from '../../integrations/mail/mailer';
import { formCodeMail } from '../../integrations/mail/templates/form-code-mail';
import { formLinkMail } from '../../integrations/mail/templates/form-link-mail';
import type { MailFrame, RenderedMail } from '../../integrations/mail/templates/mail-layout';

export interface Recipient {
  email: string;
  name?: string;
}

/** What sending takes: the process's one mailer (built by its composition root) and a logger. */
export interface MailDeps {
  mailer: Mailer;
  logger?: Logger;
}

export type Delivery = { status: 'SENT'; at: string } | { status: 'FAILED'; at: string; error: string };

/** nodemailer's error code and SMTP reply code, never its message (which may quote the address). */
export const reasonOf = (err: unknown): string => {
  const e = err as { code?: unknown; responseCode?: unknown; name?: unknown };
  const code = typeof e.code === 'string' ? e.code : typeof e.name === 'string' ? e.name : 'Error';
  return typeof e.responseCode === 'number' ? `${code} ${e.responseCode}` : code;
};

/** Sends one message best effort: the outcome, never a throw; logs the id and an error code only. */
export async function deliver(deps: MailDeps, instanceId: string, message: MailMessage, what: string): Promise<Delivery> {
  const at = new Date().toISOString();
  try {
    await deps.mailer.send(message);
    return { status: 'SENT', at };
  } catch (err) {
    const error = reasonOf(err);
    deps.logger?.warn({ instanceId, error }, `${what} e-mail not delivered`);
    return { status: 'FAILED', at, error };
  }
}

/** The tenant and platform names a mail is signed with. */
export async function mailFrame(deps: { db: DbOrTx; settings: Settings }, tenantId: string): Promise<MailFrame> {
  return { tenantName: (await findTenantName(deps.db, { tenantId })) ?? tenantId, senderName: senderNameOf(deps.settings) };
}

const messageTo = (to: Recipient, mail: RenderedMail): MailMessage => ({ to: { address: to.email, name: to.name }, ...mail });

type FrameDeps = MailDeps & { db: DbOrTx; settings: Settings };

export const deliverLink = async (deps: FrameDeps, p: { instanceId: string; tenantId: string; to: Recipient; title: string; link: string; expiresAt: Date }) =>
  deliver(
    deps,
    p.instanceId,
    messageTo(p.to, formLinkMail({ recipientName: p.to.name, title: p.title, link: p.link, expiresAt: p.expiresAt }, await mailFrame(deps, p.tenantId))),
    'form link',
  );

export const deliverCode = async (deps: FrameDeps, p: { instanceId: string; tenantId: string; to: Recipient; title: string; code: string; ttlMinutes: number }) =>
  deliver(
    deps,
    p.instanceId,
    messageTo(p.to, formCodeMail({ recipientName: p.to.name, title: p.title, code: p.code, ttlMinutes: p.ttlMinutes }, await mailFrame(deps, p.tenantId))),
    'form code',
  );
