// A local mail catcher for `npm start` (when `mail.smtp-url` is unset) and the test run: an SMTP
// sink (smtp-server) that parses each message (mailparser) and keeps the latest ones in memory,
// plus a read-only page listing them (`/`) and the same as JSON (`/messages.json`).
import { createServer, type Server } from 'node:http';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface CaughtMail {
  id: number;
  from: string;
  to: string[];
  subject: string;
  text: string;
  /** The HTML part, '' when the message has none. */
  html: string;
  /** The top-level Content-Type, e.g. `multipart/alternative`. */
  contentType: string;
  receivedAt: string;
}

export interface MailCatcher {
  smtpUrl: string;
  webUrl: string;
  stop(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function page(mails: readonly CaughtMail[]): string {
  const items = [...mails]
    .reverse()
    .map(
      (m) =>
        `<article><h2>${escapeHtml(m.subject)}</h2><p>From ${escapeHtml(m.from)} to ${escapeHtml(m.to.join(', '))} at ${m.receivedAt}</p><pre>${escapeHtml(m.text)}</pre></article>`,
    )
    .join('\n');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Mail catcher</title><meta http-equiv="refresh" content="5"></head><body><h1>Sent mail (${mails.length})</h1>${items || '<p>Nothing sent yet.</p>'}</body></html>`;
}

const listen = (server: { listen(port: number, host: string, cb: () => void): unknown; once(e: 'error', cb: (err: Error) => void): unknown }, port: number, host: string) =>
  new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, resolve);
  });

/** Starts both servers on the given ports (0: any free port); keeps the latest `keep` messages. */
export async function startMailCatcher(opts: { smtpPort: number; webPort: number; host?: string; keep?: number }): Promise<MailCatcher> {
  const host = opts.host ?? '127.0.0.1';
  const keep = opts.keep ?? 1000;
  const mails: CaughtMail[] = [];
  let nextId = 1;

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    banner: 'platform mail catcher',
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((parsed) => {
          const addresses = (v: typeof parsed.to) => (v ? (Array.isArray(v) ? v : [v]).flatMap((a) => a.value.map((x) => x.address ?? '')) : []);
          mails.push({
            id: nextId++,
            from: parsed.from?.text ?? '',
            to: addresses(parsed.to),
            subject: parsed.subject ?? '',
            text: parsed.text ?? '',
            html: typeof parsed.html === 'string' ? parsed.html : '',
            contentType: (parsed.headers.get('content-type') as { value?: string } | undefined)?.value ?? '',
            receivedAt: new Date().toISOString(),
          });
          if (mails.length > keep) mails.splice(0, mails.length - keep);
          callback();
        })
        .catch((err: Error) => callback(err));
    },
  });
  await listen(smtp as never, opts.smtpPort, host);

  const web: Server = createServer((req, res) => {
    if (req.method !== 'GET') {
      res.writeHead(405).end();
    } else if (req.url === '/messages.json') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mails));
    } else if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': "default-src 'none'" }).end(page(mails));
    } else {
      res.writeHead(404).end();
    }
  });
  await listen(web, opts.webPort, host);

  const portOf = (address: unknown) => (address as { port: number }).port;
  return {
    smtpUrl: `smtp://${host}:${portOf(smtp.server.address())}`,
    webUrl: `http://${host}:${portOf(web.address())}`,
    async stop() {
      await new Promise<void>((resolve) => smtp.close(() => resolve()));
      await new Promise<void>((resolve) => web.close(() => resolve()));
    },
  };
}
