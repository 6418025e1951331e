// The one frame of every platform mail, rendered twice from the same content: an HTML part
// (Hono's JSX, styles inlined because mail clients drop <style> blocks and classes, a table
// button that Outlook draws too) and a plain-text part with the same words in the same order.
// A template (one file per mail beside this one) only says what the mail says.
import type { Child } from 'hono/jsx';

export interface MailContent {
  subject: string;
  /** The line a mail client shows after the subject; hidden in the body. */
  preheader: string;
  greeting: string;
  /** Before the code and the button. */
  paragraphs: string[];
  /** A one-time code, shown large on its own line (before any link, so it is the mail's first six-digit number). */
  code?: string;
  button?: { label: string; url: string };
  /** After the button: the expiry, what to do if it was not you. */
  notes?: string[];
}

/** Who the mail is from: the tenant that asked, and the platform that sends it (`mail.from-name`). */
export interface MailFrame {
  tenantName: string;
  senderName: string;
}

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const FONT = "font-family: -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif;";
const TEXT = `${FONT} font-size: 16px; line-height: 24px; color: #1b1b1b; margin: 0 0 16px;`;

const footerOf = (frame: MailFrame) => `Sent by ${frame.senderName} on behalf of ${frame.tenantName}.`;

function Button(p: { label: string; url: string }) {
  return (
    <table role="presentation" cellpadding={0} cellspacing={0} border={0} style="margin: 8px 0 24px;">
      <tr>
        <td style="border-radius: 6px; background: #1a4fa0;">
          <a href={p.url} style={`${FONT} display: inline-block; padding: 14px 28px; font-size: 16px; font-weight: 600; color: #ffffff; text-decoration: none; border-radius: 6px;`}>
            {p.label}
          </a>
        </td>
      </tr>
    </table>
  );
}

function Html(p: { content: MailContent; frame: MailFrame; children?: Child }) {
  const { content: c, frame } = p;
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{c.subject}</title>
      </head>
      <body style="margin: 0; padding: 0; background: #f3f4f6;">
        <div style="display: none; max-height: 0; overflow: hidden;">{c.preheader}</div>
        <table role="presentation" width="100%" cellpadding={0} cellspacing={0} border={0} style="background: #f3f4f6;">
          <tr>
            <td align="center" style="padding: 24px 12px;">
              <table role="presentation" width="100%" cellpadding={0} cellspacing={0} border={0} style="max-width: 560px; background: #ffffff; border-radius: 8px;">
                <tr>
                  <td style={`${FONT} padding: 20px 32px 0; font-size: 14px; font-weight: 600; color: #444444;`}>{frame.tenantName}</td>
                </tr>
                <tr>
                  <td style="padding: 16px 32px 8px;">
                    <p style={TEXT}>{c.greeting}</p>
                    {c.paragraphs.map((text) => (
                      <p style={TEXT}>{text}</p>
                    ))}
                    {c.code && (
                      <p style={`${FONT} font-size: 32px; line-height: 40px; font-weight: 700; letter-spacing: 6px; color: #1b1b1b; margin: 0 0 16px;`}>{c.code}</p>
                    )}
                    {c.button && <Button {...c.button} />}
                    {c.button && (
                      <p style={`${FONT} font-size: 13px; line-height: 20px; color: #444444; margin: 0 0 16px; word-break: break-all;`}>
                        If the button does not work, copy this address into your browser: <a href={c.button.url} style="color: #1a4fa0;">{c.button.url}</a>
                      </p>
                    )}
                    {(c.notes ?? []).map((text) => (
                      <p style={TEXT}>{text}</p>
                    ))}
                  </td>
                </tr>
                <tr>
                  <td style={`${FONT} padding: 16px 32px 24px; font-size: 13px; line-height: 20px; color: #444444; border-top: 1px solid #e5e7eb;`}>{footerOf(frame)}</td>
                </tr>
              </table>
            </td>
          </tr>
        </table>
      </body>
    </html>
  );
}

function textOf(c: MailContent, frame: MailFrame): string {
  const blocks = [c.greeting, ...c.paragraphs];
  if (c.code) blocks.push(c.code);
  if (c.button) blocks.push(`${c.button.label}:\n${c.button.url}`);
  blocks.push(...(c.notes ?? []), `--\n${footerOf(frame)}`);
  return blocks.join('\n\n') + '\n';
}

/** Both parts of a mail from its content. */
export function renderMail(content: MailContent, frame: MailFrame): RenderedMail {
  const markup = (<Html content={content} frame={frame} />) as unknown as { toString(): string };
  return { subject: content.subject, text: textOf(content, frame), html: `<!doctype html>\n${markup.toString()}` };
}

/** "Hello Ann Lee," or "Hello," when the name is not known. */
export const greetingFor = (name: string | undefined) => (name?.trim() ? `Hello ${name.trim()},` : 'Hello,');
