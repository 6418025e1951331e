// The signer leaves with their copy (issue 22 §2), through the real ceremony (Temporal worker,
// dispatcher, the production sealer): when a campaign is SEALED every signer and the sender get a
// multipart completion mail whose link downloads the very sealed PDF; a signer's own signing link
// says "You have signed" until then and offers the download after; each link is mailed once (a
// repeated closing step mails nothing); the one 404 for an unknown or expired copy token, and for
// a signed signer of a cancelled campaign.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeCeremony } from '../../../services/signatures/ceremony-steps';
import { sendSignedCopies } from '../../../services/signatures/signed-copies';
import { client, type Who } from '../../support/app';
import { CAMPAIGNS, eventually, openCampaignWorld, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { expectProblem } from '../../support/fixtures';
import { buttonHref, htmlWords, mailTo, waitForMail } from '../../support/mail';
import { newAddress } from '../../support/outbound';
import { makePng } from '../../support/png';

const signBody = { signaturePng: makePng().toString('base64'), consent: true };

describe('signed copies: completion mail and download', () => {
  const ctx = useCeremonyApp({ 'public.base-url': 'https://sign.example.test', 'signatures.copy-link-days': 30, 'mail.from-name': 'Acme Signing' });
  const api = client(ctx);
  let world: CeremonyWorld;
  let editor: Who;
  let definitionId: string;

  beforeAll(async () => {
    ({ world, editor, definitionId } = await openCampaignWorld(ctx));
    // The sender as the gateway names them: the user directory keeps the e-mail the notice goes to.
    editor = { ...editor, name: 'Sara Sender', email: newAddress('sender') };
  });
  afterAll(async () => world?.stop());

  const deps = () => ({ db: ctx.db.db, settings: ctx.settings, mailer: ctx.deps.mailer, logger: ctx.deps.logger });
  const pathOf = (url: string) => new URL(url).pathname;

  async function started() {
    const people = [
      { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
      { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
    ];
    const r = await api.post(CAMPAIGNS, editor, { definitionId, recipients: people, variables: { salary: '50000' }, timeZone: 'Europe/Berlin' });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, people, token };
  }

  const signPage = async (token: string) => {
    const res = await ctx.app.request(`/sign/${token}`);
    return { status: res.status, html: await res.text() };
  };

  it('mails every signer and the sender a download of the sealed PDF; the signing link waits, then offers it; mailed once', async () => {
    const c = await started();
    // The invitation first: a recipient who signs before the ceremony mails it is never mailed it.
    await waitForMail(c.people[0]!.email);
    expect((await api.post(`${SIGN_BASE}/${c.token('employee')}`, null, signBody)).status).toBe(200);
    // Signed, the others not yet: the link says so instead of the ceremony.
    const waiting = await signPage(c.token('employee'));
    expect(waiting.status).toBe(200);
    expect(waiting.html).toContain('You have signed. The completed document will be sent when everyone has signed.');
    expect(waiting.html).not.toContain('/hosted/sign.');

    await waitForMail(c.people[1]!.email);
    await eventually(() => api.get(`${SIGN_BASE}/${c.token('manager')}`, null).then((r) => r.status), (s) => s === 200);
    expect((await api.post(`${SIGN_BASE}/${c.token('manager')}`, null, { typedName: 'Mara Manager', consent: true })).status).toBe(200);
    await eventually(() => api.get(`${CAMPAIGNS}/${c.id}`, editor).then((r) => r.json.sealStatus), (s) => s === 'SEALED');

    const sealed = await ctx.app.request(`${CAMPAIGNS}/${c.id}/signed.pdf`, { headers: { 'X-User-Id': editor.user, 'X-Tenant-Id': editor.tenant! } });
    const sealedBytes = Buffer.from(await sealed.arrayBuffer());
    const links: string[] = [];
    for (const [address, count, name] of [
      [c.people[0]!.email, 2, 'Eva Employee'],
      [c.people[1]!.email, 2, 'Mara Manager'],
      [editor.email!, 1, 'Sara Sender'],
    ] as const) {
      const mail = (await waitForMail(address, count)).at(-1)!;
      expect(mail.subject).toBe('Signed by everyone: Employment contract');
      expect(mail.contentType).toBe('multipart/alternative');
      expect(mail.text).toMatch(new RegExp(`^Hello ${name},\\n\\nEveryone has signed the document "Employment contract"`));
      expect(htmlWords(mail)).toContain('Download the signed PDF');
      // 30 days after the seal, in the campaign's zone, in words.
      for (const part of [mail.text, htmlWords(mail)]) expect(part).toMatch(/The download link works until \w+day \d{1,2} \w+ \d{4}, \d{2}:\d{2} \(Europe\/Berlin time\)/);
      const link = buttonHref(mail);
      expect(link).toMatch(/^https:\/\/sign\.example\.test\/api\/public\/signed-copy\/[A-Za-z0-9_-]{43}$/);
      expect(mail.text).toContain(link);
      links.push(link);
    }
    expect(new Set(links).size).toBe(3);
    for (const link of links) {
      const res = await ctx.app.request(pathOf(link));
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('application/pdf');
      expect(res.headers.get('content-disposition')).toContain('attachment');
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(Buffer.from(await res.arrayBuffer()).equals(sealedBytes)).toBe(true);
    }

    // The signer's own signing link now offers the same download.
    const page = await signPage(c.token('employee'));
    expect(page.status).toBe(200);
    expect(page.html).toContain('Everyone has signed');
    expect(page.html).toContain(`href="${links[0]}"`);
    expect(page.html).toContain('(Europe/Berlin time)');

    // A repeated closing step (an activity retry) mails nothing more.
    expect(await sendSignedCopies(deps(), editor.tenant!, c.id)).toBe(0);
    expect(await closeCeremony(deps(), editor.tenant!, c.id)).toBe(false);
    expect((await mailTo(c.people[0]!.email)).length).toBe(2);
    expect((await mailTo(editor.email!)).length).toBe(1);
    const [row] = (await ctx.db.db.execute(sql`select count(*)::int as n, count(*) filter (where delivery_status = 'SENT')::int as sent from signature_copy_links where instance_id = ${c.id}`)) as unknown as { n: number; sent: number }[];
    expect(row).toEqual({ n: 3, sent: 3 });

    // Past its expiry the copy link and the signer's page are the one 404.
    await ctx.db.db.execute(sql`update signature_copy_links set expires_at = now() - interval '1 second' where instance_id = ${c.id} and signer_id = 'employee'`);
    const unknown = await api.get(`/api/public/signed-copy/${'x'.repeat(43)}`, null);
    expectProblem(unknown, 404, 'signing-link-not-found');
    const expired = await api.get(pathOf(links[0]!), null);
    expectProblem(expired, 404, 'signing-link-not-found');
    expect({ ...expired.json, requestId: undefined }).toEqual({ ...unknown.json, requestId: undefined });
    expect((await signPage(c.token('employee'))).status).toBe(404);
    // The others' links still work.
    expect((await ctx.app.request(pathOf(links[1]!))).status).toBe(200);
    expectProblem(await api.get(`/api/public/signed-copy/bad%21token`, null), 400);
  });

  it('a signed signer of a cancelled campaign gets the one 404; no copy is made', async () => {
    const c = await started();
    expect((await api.post(`${SIGN_BASE}/${c.token('employee')}`, null, signBody)).status).toBe(200);
    expect((await signPage(c.token('employee'))).status).toBe(200);
    expect((await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor)).status).toBe(200);
    const page = await signPage(c.token('employee'));
    expect(page.status).toBe(404);
    expect(page.html).toContain('This signing link is not available');
    expect(await sendSignedCopies(deps(), editor.tenant!, c.id)).toBe(0);
    const [row] = (await ctx.db.db.execute(sql`select count(*)::int as n from signature_copy_links where instance_id = ${c.id}`)) as unknown as { n: number }[];
    expect(row!.n).toBe(0);
  });
});
