// The ceremony's e-mails: the signing link (when a recipient is armed), reminders, and the
// EMAIL_OTP code. Best effort through the forms' mailer (never a failed caller); log lines carry
// ids and error codes only.
import { deliver, type Delivery, type MailDeps } from '../forms/outbound-mail';

interface To {
  email: string;
  name: string;
}

export const deliverSigningLink = (deps: MailDeps, p: { instanceId: string; to: To; title: string; link: string; reminder: boolean }): Promise<Delivery> =>
  deliver(
    deps,
    p.instanceId,
    {
      to: { address: p.to.email, name: p.to.name },
      subject: p.reminder ? `Reminder: please sign ${p.title}` : `Please sign: ${p.title}`,
      text: [
        `Hello ${p.to.name},`,
        '',
        p.reminder ? `the document "${p.title}" is still waiting for your signature. Sign it here:` : `you have been asked to sign the document "${p.title}". Review and sign it here:`,
        p.link,
        '',
        'The link is personal: do not forward it.',
      ].join('\n'),
    },
    p.reminder ? 'signing reminder' : 'signing link',
  );

export const deliverSigningCode = (deps: MailDeps, p: { instanceId: string; to: To; title: string; code: string; ttlMinutes: number }): Promise<Delivery> =>
  deliver(
    deps,
    p.instanceId,
    {
      to: { address: p.to.email, name: p.to.name },
      subject: `Your code to sign ${p.title}`,
      text: [`Hello ${p.to.name},`, '', `your code to open "${p.title}" for signing is:`, '', p.code, '', `It works for ${p.ttlMinutes} minutes. If you did not ask for it, ignore this message.`].join('\n'),
    },
    'signing code',
  );
