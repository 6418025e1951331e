// The messages the run's real SMTP catcher received (parsed by mailparser there), and waiting for one.
import type { CaughtMail } from '../../workers/embedded/mail-catcher';
import { servers } from './servers';

export const smtpUrl = () => servers().mail.smtpUrl;

export async function mailTo(address: string): Promise<CaughtMail[]> {
  const res = await fetch(`${servers().mail.webUrl}/messages.json`);
  const all = (await res.json()) as CaughtMail[];
  return all.filter((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address));
}

/**
 * Waits until `address` has received `count` messages. A route's own mail is acknowledged before it
 * answers, but many mails are sent by durable processes (invitations, reminders, signed copies):
 * they arrive after the dispatcher and a worker ran, which a loaded machine delays. The deadline
 * only turns a hang into a message; tests wait on the mail itself.
 */
export async function waitForMail(address: string, count = 1, timeoutMs = 120_000): Promise<CaughtMail[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailTo(address);
    if (mails.length >= count) return mails;
    if (Date.now() > deadline) throw new Error(`expected ${count} mail(s) to ${address}, got ${mails.length}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The 6-digit code of a recipient code mail. */
export const codeIn = (mail: CaughtMail): string => {
  const match = /\b(\d{6})\b/.exec(mail.text);
  if (!match) throw new Error(`no code in: ${mail.text}`);
  return match[1]!;
};

/** The words a reader sees in a mail's HTML part: tags dropped, entities of the template decoded, spaces folded. */
export const htmlWords = (mail: CaughtMail): string =>
  mail.html
    .replace(/<(style|title|head)[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();

/** The href of the mail's button (the HTML part's first link). */
export const buttonHref = (mail: CaughtMail): string => {
  const match = /<a href="([^"]+)"/.exec(mail.html);
  if (!match) throw new Error(`no link in the HTML part of: ${mail.subject}`);
  return match[1]!.replace(/&amp;/g, '&');
};
