// The campaign is sealed: each signer, and the sender who started it, gets the link to download
// the signed PDF (a token of its own, expiring after `signatures.copy-link-days`).
import { instantInWords } from './expiry-words';
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';

export interface SigningCompletionMail {
  recipientName?: string;
  title: string;
  link: string;
  expiresAt: Date;
  timeZone?: string;
  /** A signer, or the sender (the campaign's creator). */
  role: 'signer' | 'sender';
}

export const signingCompletionMail = (m: SigningCompletionMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Signed by everyone: ${m.title}`,
      preheader: `"${m.title}" is signed by everyone. Download your copy.`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [
        m.role === 'signer'
          ? `Everyone has signed the document "${m.title}" from ${frame.tenantName}. The signed PDF is sealed and ready for you to keep.`
          : `Everyone has signed the document "${m.title}" that you sent. The signed PDF is sealed and ready to download.`,
      ],
      button: { label: 'Download the signed PDF', url: m.link },
      notes: [`The download link works until ${instantInWords(m.expiresAt, m.timeZone)}. Save the PDF somewhere safe: it is your copy.`],
    },
    frame,
  );
