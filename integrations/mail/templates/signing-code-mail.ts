// The EMAIL_OTP code of a signing link. The code comes first: it is the mail's only six-digit number.
import { durationInWords } from './expiry-words';
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';

export interface SigningCodeMail {
  recipientName: string;
  title: string;
  code: string;
  ttlMinutes: number;
}

export const signingCodeMail = (m: SigningCodeMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Your code to sign ${m.title}`,
      preheader: `Your code to open "${m.title}" for signing.`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [`Your code to open "${m.title}" from ${frame.tenantName} for signing is:`],
      code: m.code,
      notes: [`It works for ${durationInWords(m.ttlMinutes)}. If you did not ask for it, you can ignore this message.`],
    },
    frame,
  );
