// Outbound config and send: roles, a SENT instance pinned and prefilled, the link e-mailed over real
// SMTP (and a failed delivery recorded, never a failed send), every refusal, tenant isolation.
import { Writable } from 'node:stream';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { client, useTestApp } from '../../support/app';
import { formsApi, seedFormsTenant } from '../../support/forms';
import { publishedForm } from '../../support/intake';
import { smtpUrl, waitForMail } from '../../support/mail';
import { OUTBOUND_DRAFT, ROLES, outboundForm, send } from '../../support/outbound';

describe('outbound config and send', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'public.base-url': 'https://forms.example.test/' });
  const api = client(ctx);
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let other: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };
  beforeAll(async () => {
    t = await seedFormsTenant(ctx);
    other = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });

  it('outbound-config stores the roles (definition view, audit); unknown and content keys are refused with paths', async () => {
    const view = await formsApi(ctx).read(t.asOwner, def.id);
    expect(view.outboundRoles).toEqual(ROLES);
    const audit = await formsApi(ctx).audit(t.asOwner, def.id);
    expect(audit.find((e) => e.action === 'outbound_configured')?.detail).toEqual({ roles: ROLES });
    const bad = await api.put(`/api/form-definitions/${def.id}/outbound-config`, t.asOwner, { roles: { nope: 'PREPARER', note: 'EITHER' } });
    expect(bad.status).toBe(400);
    expect(bad.json.errors.map((e: { path: string }) => e.path).sort()).toEqual(['roles.nope', 'roles.note']);
    const badRole = await api.put(`/api/form-definitions/${def.id}/outbound-config`, t.asOwner, { roles: { account: 'OWNER' } });
    expect(badRole.status).toBe(400);
    expect(badRole.json.code).toBe('validation-failed');
  });

  it('send: 201 with instance, token and link; the link e-mail arrives; the instance is SENT, pinned, prefilled, delivery recorded', async () => {
    const { r, email } = await send(ctx, t.asOwner, def.id, { context: { taskId: 'task-9', waitingWorkflowId: 'someone-elses', processStartStatus: 'PROCESSED' } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(r.json.link).toBe(`https://forms.example.test/respond/${r.json.token}`);
    expect(r.json.deliveryStatus).toBe('SENT');
    const [mail] = await waitForMail(email);
    expect(mail!.subject).toBe('Please fill in: Account review');
    expect(mail!.text).toContain(r.json.link);
    expect(mail!.text).toContain('Hello Ann Lee,');
    const inst = (await api.get(`/api/form-instances/${r.json.instanceId}`, t.asOwner)).json;
    expect(inst).toMatchObject({
      state: 'SENT',
      origin: 'OUTBOUND',
      definitionVersion: 1,
      prefill: { account: 'AC-1' },
      data: {},
      recipient: { email, name: 'Ann Lee', deliveryStatus: 'SENT' },
      context: { taskId: 'task-9', outboundRoles: ROLES },
    });
    // A tenant's request cannot name a workflow to signal, nor pre-set processing state.
    expect(inst.context.waitingWorkflowId).toBeUndefined();
    expect(inst.context.processStartStatus).toBeUndefined();
    const days = (Date.parse(inst.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.9);
    expect(days).toBeLessThanOrEqual(14);
  });

  it('send refusals: prefill unknown or invalid (400 paths), RECIPIENT prefilled (field-not-editable), past expiresAt, bad e-mail', async () => {
    const unknown = (await send(ctx, t.asOwner, def.id, { prefill: { nope: 1, amount: 'ten' } })).r;
    expect(unknown.status).toBe(400);
    expect(unknown.json.errors.map((e: { path: string }) => e.path)).toEqual(['prefill.nope', 'prefill.amount']);
    const locked = (await send(ctx, t.asOwner, def.id, { prefill: { answer: 'mine' } })).r;
    expect(locked.status).toBe(400);
    expect(locked.json).toMatchObject({ code: 'field-not-editable', errors: [{ path: 'prefill.answer' }] });
    const past = (await send(ctx, t.asOwner, def.id, { expiresAt: new Date(Date.now() - 1000).toISOString() })).r;
    expect(past.status).toBe(400);
    expect(past.json.errors[0].path).toBe('expiresAt');
    const mail = await api.post(`/api/form-definitions/${def.id}/send`, t.asOwner, { recipient: { email: 'not-an-address' } });
    expect(mail.status).toBe(400);
    expect(mail.json.errors[0].path).toContain('recipient.email');
  });

  it('an unpublished outbound form is 409 form-not-published; an INBOUND one is 404 on both routes', async () => {
    const draft = await outboundForm(ctx, t.asOwner, false);
    expect((await send(ctx, t.asOwner, draft.id)).r.json.code).toBe('form-not-published');
    const inbound = (await publishedForm(ctx, t.asOwner)).def;
    const s = (await send(ctx, t.asOwner, inbound.id)).r;
    expect(s.status).toBe(404);
    expect(s.json.code).toBe('definition-not-found');
    expect((await api.put(`/api/form-definitions/${inbound.id}/outbound-config`, t.asOwner, { roles: {} })).status).toBe(404);
  });

  it("another tenant's definition is 404 on both routes; a read grant cannot send", async () => {
    const foreign = { ...other.asOwner };
    expect((await send(ctx, foreign, def.id)).r.status).toBe(404);
    expect((await api.put(`/api/form-definitions/${def.id}/outbound-config`, foreign, { roles: ROLES })).status).toBe(404);
    const reader = (await send(ctx, t.as('reader'), def.id)).r;
    expect(reader.status).toBe(403);
    expect(reader.json.code).toBe('capability-write-required');
  });

  it('the draft fields bound the roles: a field added to the draft can get a role', async () => {
    const api2 = formsApi(ctx);
    const d = await api2.create(t.asOwner, { kind: 'OUTBOUND', draftSchema: OUTBOUND_DRAFT });
    const withExtra = { ...OUTBOUND_DRAFT, fields: [...OUTBOUND_DRAFT.fields, { key: 'extra', type: 'email', label: 'Extra' }] };
    expect((await api2.save(t.asOwner, d.id, withExtra, d.version)).status).toBe(200);
    const r = await api.put(`/api/form-definitions/${d.id}/outbound-config`, t.asOwner, { roles: { extra: 'RECIPIENT' } });
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ definitionId: d.id, roles: { extra: 'RECIPIENT' } });
  });
});

describe('outbound send when mail cannot be delivered', () => {
  const lines: string[] = [];
  const logger = pino({ level: 'info' }, new Writable({ write: (chunk, _e, done) => (lines.push(String(chunk)), done()) }));
  // Port 9 (discard) has no listener here: the connection is refused.
  const ctx = useTestApp({ 'mail.smtp-url': 'smtp://127.0.0.1:9', 'mail.timeout-ms': 2000, deps: { logger } });

  it('the send still answers 201; the failure is recorded on the instance; no log line holds the address or name', async () => {
    const t = await seedFormsTenant(ctx);
    const def = await outboundForm(ctx, t.asOwner);
    const { r, email } = await send(ctx, t.asOwner, def.id);
    expect(r.status, r.text).toBe(201);
    expect(r.json.deliveryStatus).toBe('FAILED');
    const inst = (await client(ctx).get(`/api/form-instances/${r.json.instanceId}`, t.asOwner)).json;
    expect(inst).toMatchObject({ state: 'SENT', recipient: { deliveryStatus: 'FAILED', deliveryError: expect.stringMatching(/^ECONNECTION|^ESOCKET/) } });
    expect(lines.some((l) => l.includes('form link e-mail not delivered') && l.includes(r.json.instanceId))).toBe(true);
    expect(lines.join('\n')).not.toContain(email);
    expect(lines.join('\n')).not.toContain('Ann Lee');
  });
});
