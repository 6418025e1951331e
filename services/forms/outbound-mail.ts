// The two e-mails of outbound delivery: the link (after a send) and the one-time code. Both are
// best effort (spec rule 6): a failure is answered to the caller, never thrown. Log lines carry the
// instance id and an error code only: the address and name are personal data.
import type { Logger } from 'pino';
import type { MailMessage, Mailer } from '../../integrations/mail/mailer';

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

const greeting = (to: Recipient) => (to.name ? `Hello ${to.name},` : 'Hello,');

export const deliverLink = (deps: MailDeps, p: { instanceId: string; to: Recipient; title: string; link: string; expiresAt: Date }) =>
  deliver(
    deps,
    p.instanceId,
    {
      to: { address: p.to.email, name: p.to.name },
      subject: `Please fill in: ${p.title}`,
      text: [
        greeting(p.to),
        '',
        `you have been asked to fill in the form "${p.title}". Open it here:`,
        p.link,
        '',
        `The link works until ${p.expiresAt.toISOString()}. When you open it, we e-mail a code to this address to confirm it is you.`,
      ].join('\n'),
    },
    'form link',
  );

export const deliverCode = (deps: MailDeps, p: { instanceId: string; to: Recipient; title: string; code: string; ttlMinutes: number }) =>
  deliver(
    deps,
    p.instanceId,
    {
      to: { address: p.to.email, name: p.to.name },
      subject: `Your code for ${p.title}`,
      text: [
        greeting(p.to),
        '',
        `your code to open the form "${p.title}" is:`,
        '',
        p.code,
        '',
        `It works for ${p.ttlMinutes} minutes. If you did not ask for it, ignore this message.`,
      ].join('\n'),
    },
    'form code',
  );
