// Every platform mail (form link, form code, signing invitation, reminder, signing code, signed
// copy for a signer and for the sender) is multipart/alternative, text and HTML rendered from one
// template: the tenant's name, a capitalised first sentence, a button to the link, the expiry in
// words in the recipient's zone (or UTC, said), and the platform's sender name. Sent through the
// real mailer to the run's SMTP catcher and read back. The form mails are also checked as the
// outbound flow sends them (the tenant's name comes from the tenant row).
import { describe, expect, it } from 'vitest';
import { mailerFor } from '../../../integrations/mail/mailer';
import { formCodeMail } from '../../../integrations/mail/templates/form-code-mail';
import { formLinkMail } from '../../../integrations/mail/templates/form-link-mail';
import type { MailFrame, RenderedMail } from '../../../integrations/mail/templates/mail-layout';
import { signingCodeMail } from '../../../integrations/mail/templates/signing-code-mail';
import { signingCompletionMail } from '../../../integrations/mail/templates/signing-completion-mail';
import { signingInvitationMail } from '../../../integrations/mail/templates/signing-invitation-mail';
import { signingReminderMail } from '../../../integrations/mail/templates/signing-reminder-mail';
import { testSettings, useTestApp } from '../../support/app';
import { seedFormsTenant } from '../../support/forms';
import { buttonHref, codeIn, htmlWords, smtpUrl, waitForMail } from '../../support/mail';
import { newAddress, openForm, outboundForm, send } from '../../support/outbound';

const frame: MailFrame = { tenantName: 'Acme & Sons Ltd', senderName: 'Acme Platform' };
const link = 'https://sign.example.test/sign/tok_ABC-def?x=1&y=2';
// 20:03 UTC; 21:03 in Berlin (CET in December).
const expiresAt = new Date('2026-12-11T20:03:36.673Z');

const cases: { name: string; mail: RenderedMail; subject: string; first: string; button?: string; expiry?: string; code?: string }[] = [
  {
    name: 'form link (zone unknown: UTC, said)',
    mail: formLinkMail({ recipientName: 'Rita Recipient', title: 'Account review', link, expiresAt }, frame),
    subject: 'Please fill in: Account review',
    first: 'Acme & Sons Ltd has asked you to fill in the form "Account review".',
    button: 'Open the form',
    expiry: 'Friday 11 December 2026, 20:03 UTC',
  },
  {
    name: 'form code',
    mail: formCodeMail({ recipientName: 'Rita Recipient', title: 'Account review', code: '042917', ttlMinutes: 10 }, frame),
    subject: 'Your code for Account review',
    first: 'Your code to open the form "Account review" from Acme & Sons Ltd is:',
    code: '042917',
  },
  {
    name: 'signing invitation (the campaign zone)',
    mail: signingInvitationMail({ recipientName: 'Ada Lovelace', title: 'Lease', link, expiresAt, timeZone: 'Europe/Berlin' }, frame),
    subject: 'Please sign: Lease',
    first: 'Acme & Sons Ltd has asked you to sign the document "Lease".',
    button: 'Review and sign',
    expiry: 'Friday 11 December 2026, 21:03 (Europe/Berlin time)',
  },
  {
    name: 'signing reminder',
    mail: signingReminderMail({ recipientName: 'Ada Lovelace', title: 'Lease', link, expiresAt, timeZone: 'Not/AZone' }, frame),
    subject: 'Reminder: please sign Lease',
    first: 'The document "Lease" from Acme & Sons Ltd is still waiting for your signature.',
    button: 'Review and sign',
    expiry: 'Friday 11 December 2026, 20:03 UTC',
  },
  {
    name: 'signing code',
    mail: signingCodeMail({ recipientName: 'Ada Lovelace', title: 'Lease', code: '930114', ttlMinutes: 90 }, frame),
    subject: 'Your code to sign Lease',
    first: 'Your code to open "Lease" from Acme & Sons Ltd for signing is:',
    code: '930114',
  },
  {
    name: 'signed copy, signer',
    mail: signingCompletionMail({ recipientName: 'Ada Lovelace', title: 'Lease', link, expiresAt, timeZone: 'America/New_York', role: 'signer' }, frame),
    subject: 'Signed by everyone: Lease',
    first: 'Everyone has signed the document "Lease" from Acme & Sons Ltd.',
    button: 'Download the signed PDF',
    expiry: 'Friday 11 December 2026, 15:03 (America/New_York time)',
  },
  {
    name: 'signed copy, sender',
    mail: signingCompletionMail({ title: 'Lease', link, expiresAt, role: 'sender' }, frame),
    subject: 'Signed by everyone: Lease',
    first: 'Everyone has signed the document "Lease" that you sent.',
    button: 'Download the signed PDF',
    expiry: 'Friday 11 December 2026, 20:03 UTC',
  },
];

describe('platform mail templates', () => {
  const settings = testSettings({ 'mail.smtp-url': smtpUrl(), 'mail.from': 'no-reply@platform.example.test', 'mail.from-name': 'Acme Platform' });
  const mailer = mailerFor(settings);

  for (const c of cases) {
    it(`${c.name}: multipart text and HTML with the same words, tenant, button, expiry in words, sender name`, async () => {
      const to = newAddress('mail');
      await mailer.send({ to: { address: to, name: 'Rita Recipient' }, ...c.mail });
      const [mail] = await waitForMail(to);
      expect(mail!.contentType).toBe('multipart/alternative');
      expect(mail!.subject).toBe(c.subject);
      expect(mail!.from).toMatch(/^"?Acme Platform"? <no-reply@platform\.example\.test>$/);
      const words = htmlWords(mail!);
      for (const part of [mail!.text, words]) {
        expect(part).toMatch(/Hello( Rita Recipient| Ada Lovelace)?,/);
        expect(part).toContain(c.first);
        expect(part).toContain('Sent by Acme Platform on behalf of Acme & Sons Ltd.');
        expect(part).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
        if (c.expiry) expect(part).toContain(c.expiry);
        if (c.button) expect(part).toContain(c.button);
      }
      // The text part opens with the greeting; the first sentence after it starts with a capital letter.
      expect(mail!.text).toMatch(/^Hello( Rita Recipient| Ada Lovelace)?,\n\n/);
      expect(mail!.text.split(/\n\n/)[1]).toMatch(/^[A-Z]/);
      expect(mail!.html).toMatch(/^<!doctype html>\s*<html lang="en">/);
      if (c.button) {
        expect(buttonHref(mail!)).toBe(link);
        expect(mail!.text).toContain(`${c.button}:\n${link}`);
      } else expect(mail!.html).not.toContain('<a ');
      if (c.code) {
        expect(codeIn(mail!)).toBe(c.code);
        expect(/\b(\d{6})\b/.exec(words)![1]).toBe(c.code);
      }
    });
  }

  it('escapes what the template is given in the HTML part', async () => {
    const mail = formLinkMail({ recipientName: '<b>Rita</b>', title: 'A "quoted" <i>title</i>', link, expiresAt }, frame);
    expect(mail.html).not.toContain('<b>Rita</b>');
    expect(mail.html).not.toContain('<i>title</i>');
    expect(mail.html).toContain('&lt;b&gt;Rita&lt;/b&gt;');
    expect(mail.html).toContain('href="https://sign.example.test/sign/tok_ABC-def?x=1&amp;y=2"');
  });
});

describe('form mails as the outbound flow sends them', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'public.base-url': 'https://forms.example.test/' });

  it("names the tenant from its row in the link and code mails, both multipart, the expiry said in UTC", async () => {
    const t = await seedFormsTenant(ctx);
    const def = await outboundForm(ctx, t.as('editor'));
    const { r, email } = await send(ctx, t.as('editor'), def.id, { expiresAt: '2030-01-04T09:30:00.000Z' });
    expect(r.status, r.text).toBe(201);
    const [linkMail] = await waitForMail(email);
    expect(linkMail!.contentType).toBe('multipart/alternative');
    for (const part of [linkMail!.text, htmlWords(linkMail!)]) {
      expect(part).toContain(`Tenant ${t.id} has asked you to fill in the form "Account review".`);
      expect(part).toContain('The link works until Friday 4 January 2030, 09:30 UTC.');
    }
    expect(linkMail!.text).toMatch(/^Hello Ann Lee,\n\nTenant /);
    expect(buttonHref(linkMail!)).toBe(r.json.link);

    await openForm(ctx, r.json.token, email);
    const codeMail = (await waitForMail(email, 2)).at(-1)!;
    expect(codeMail.contentType).toBe('multipart/alternative');
    expect(htmlWords(codeMail)).toContain(`from Tenant ${t.id} is: ${codeIn(codeMail)}`);
  });
});
