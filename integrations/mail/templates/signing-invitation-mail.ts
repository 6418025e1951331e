// The signing link, mailed when a recipient's turn comes (their order group is armed).
import { instantInWords } from './expiry-words';
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';

export interface SigningInvitationMail {
  recipientName: string;
  title: string;
  link: string;
  /** The campaign's expiry; null: it does not expire. */
  expiresAt: Date | null;
  /** The campaign's IANA zone. */
  timeZone?: string;
}

/** The sentence both the invitation and the reminder end with. */
export const signingLinkNotes = (m: SigningInvitationMail): string[] => [
  ...(m.expiresAt ? [`You can sign until ${instantInWords(m.expiresAt, m.timeZone)}.`] : []),
  'The link is personal: please do not forward it.',
];

export const signingInvitationMail = (m: SigningInvitationMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Please sign: ${m.title}`,
      preheader: `${frame.tenantName} asks you to sign "${m.title}".`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [`${frame.tenantName} has asked you to sign the document "${m.title}". Review it and sign it online; it takes a few minutes.`],
      button: { label: 'Review and sign', url: m.link },
      notes: signingLinkNotes(m),
    },
    frame,
  );
