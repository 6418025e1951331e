// The outbound form's link (after a send): who asks, which form, the button, until when it works.
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';
import { instantInWords } from './expiry-words';

export interface FormLinkMail {
  recipientName?: string;
  title: string;
  link: string;
  expiresAt: Date;
  /** The recipient's IANA zone when known; the expiry is said in UTC otherwise. */
  timeZone?: string;
}

export const formLinkMail = (m: FormLinkMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Please fill in: ${m.title}`,
      preheader: `${frame.tenantName} asks you to fill in "${m.title}".`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [`${frame.tenantName} has asked you to fill in the form "${m.title}".`],
      button: { label: 'Open the form', url: m.link },
      notes: [
        `The link works until ${instantInWords(m.expiresAt, m.timeZone)}.`,
        'When you open it, we e-mail a code to this address to confirm it is you. The link is personal: please do not forward it.',
      ],
    },
    frame,
  );
