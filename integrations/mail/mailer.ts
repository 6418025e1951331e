// Outgoing e-mail over SMTP (nodemailer). Built once per process by its composition root; the
// mailer holds one transport, without a pool: each message opens its own connection, so nothing
// stays open to be closed at shutdown.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Settings } from '../../domain/settings';

export interface MailMessage {
  to: { address: string; name?: string };
  subject: string;
  text: string;
  /** The same words as `text` (integrations/mail/templates); sent as multipart/alternative. */
  html?: string;
}

export interface Mailer {
  /** Resolves once the SMTP server accepted the message; rejects with the reason otherwise. */
  send(message: MailMessage): Promise<void>;
}

export class MailNotConfiguredError extends Error {
  constructor() {
    super('mail.smtp-url is not set');
  }
}

function createTransport(url: string, timeoutMs: number): Transporter {
  const parsed = new URL(url);
  return nodemailer.createTransport({
    host: parsed.hostname,
    port: parsed.port ? Number(parsed.port) : undefined,
    secure: parsed.protocol === 'smtps:',
    auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
  });
}

/** `Name <address>` or a bare address, split; a name in quotes loses them. */
function splitAddress(from: string): { name: string; address: string } {
  const m = /^\s*"?([^"<]*?)"?\s*<([^>]+)>\s*$/.exec(from);
  return m ? { name: m[1]!.trim(), address: m[2]!.trim() } : { name: '', address: from.trim() };
}

/** The platform's name as mails say it: `mail.from-name`, else the display name of `mail.from`. */
export function senderNameOf(settings: Settings): string {
  return settings['mail.from-name'] || splitAddress(settings['mail.from']).name || 'the platform';
}

/** The From header: `mail.from`, with `mail.from-name` as its display name when set. */
function fromOf(settings: Settings): string | { name: string; address: string } {
  const name = settings['mail.from-name'];
  return name ? { name, address: splitAddress(settings['mail.from']).address } : settings['mail.from'];
}

/** The mailer the settings describe; with `mail.smtp-url` unset every send fails with MailNotConfiguredError. */
export function mailerFor(settings: Settings): Mailer {
  const url = settings['mail.smtp-url'];
  const from = fromOf(settings);
  // Built on the first send, so a URL nodemailer cannot use fails that delivery, never the start-up.
  let transport: Transporter | undefined;
  return {
    async send(message) {
      if (!url) throw new MailNotConfiguredError();
      transport ??= createTransport(url, settings['mail.timeout-ms']);
      await transport.sendMail({
        from,
        to: message.to.name ? { name: message.to.name, address: message.to.address } : message.to.address,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
      });
    },
  };
}
