// The one-time code that opens an outbound form (respond page). The code comes first: it is the
// mail's only six-digit number.
import { durationInWords } from './expiry-words';
import { greetingFor, renderMail, type MailFrame, type RenderedMail } from './mail-layout';

export interface FormCodeMail {
  recipientName?: string;
  title: string;
  code: string;
  ttlMinutes: number;
}

export const formCodeMail = (m: FormCodeMail, frame: MailFrame): RenderedMail =>
  renderMail(
    {
      subject: `Your code for ${m.title}`,
      preheader: `Your code to open "${m.title}".`,
      greeting: greetingFor(m.recipientName),
      paragraphs: [`Your code to open the form "${m.title}" from ${frame.tenantName} is:`],
      code: m.code,
      notes: [`It works for ${durationInWords(m.ttlMinutes)}. If you did not ask for it, you can ignore this message.`],
    },
    frame,
  );
