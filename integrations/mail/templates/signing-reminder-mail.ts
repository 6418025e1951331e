// The reminder of a signing link not signed yet (the ceremony's reminder timer).
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';
import { signingLinkNotes, type SigningInvitationMail } from './signing-invitation-mail';

export const signingReminderMail = (m: SigningInvitationMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Reminder: please sign ${m.title}`,
      preheader: `"${m.title}" is still waiting for your signature.`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [`The document "${m.title}" from ${frame.tenantName} is still waiting for your signature.`],
      button: { label: 'Review and sign', url: m.link },
      notes: signingLinkNotes(m),
    },
    frame,
  );
