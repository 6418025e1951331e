// Outgoing e-mail over SMTP (nodemailer). One transport per SMTP URL, without a pool: each message
// opens its own connection, so nothing stays open to be closed at shutdown.
import nodemailer, { type Transporter } from 'nodemailer';
import type { Settings } from '../../domain/settings';

export interface MailMessage {
  to: { address: string; name?: string };
  subject: string;
  text: string;
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

const transports = new Map<string, Transporter>();

function transportFor(url: string, timeoutMs: number): Transporter {
  const key = `${timeoutMs} ${url}`;
  let transport = transports.get(key);
  if (!transport) {
    const parsed = new URL(url);
    transport = nodemailer.createTransport({
      host: parsed.hostname,
      port: parsed.port ? Number(parsed.port) : undefined,
      secure: parsed.protocol === 'smtps:',
      auth: parsed.username ? { user: decodeURIComponent(parsed.username), pass: decodeURIComponent(parsed.password) } : undefined,
      connectionTimeout: timeoutMs,
      greetingTimeout: timeoutMs,
      socketTimeout: timeoutMs,
    });
    transports.set(key, transport);
  }
  return transport;
}

/** The mailer the settings describe; with `mail.smtp-url` unset every send fails with MailNotConfiguredError. */
export function mailerFor(settings: Settings): Mailer {
  const url = settings['mail.smtp-url'];
  const from = settings['mail.from'];
  return {
    async send(message) {
      if (!url) throw new MailNotConfiguredError();
      await transportFor(url, settings['mail.timeout-ms']).sendMail({
        from,
        to: message.to.name ? { name: message.to.name, address: message.to.address } : message.to.address,
        subject: message.subject,
        text: message.text,
      });
    },
  };
}
