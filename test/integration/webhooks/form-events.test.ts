// form.instance.<state>: each lifecycle event of a form instance reaches a subscribed endpoint from
// a real flow (instance routes, the embed submit, the durable intake, an outbound send and its
// recipient's code, the expiry sweep), verified with standardwebhooks; payloads carry ids and
// states, never answers, names or e-mail addresses; a tenant without endpoints writes no event.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FORM_INSTANCE_STATES } from '../../../domain/forms/instance-states';
import { client } from '../../support/app';
import { testS3Client } from '../../support/documents';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';
import { smtpUrl } from '../../support/mail';
import { openForm, outboundForm, send } from '../../support/outbound';
import { PII_SENTINELS } from '../../support/pii-sentinels';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, startDeliveryWorld, useWebhookApp, type DeliveryWorld } from './webhook-world';

const ctx = useWebhookApp({ 'forms.embed-key': EMBED_KEY, 'mail.smtp-url': smtpUrl(), 'forms.submission-pdf': false, deps: { s3: testS3Client() } });
const api = client(ctx);
let receiver: WebhookReceiver;
let world: DeliveryWorld;
let t: Awaited<ReturnType<typeof seedFormsTenant>>;
const PATH = '/forms';

/** Resolves with the delivery of `type` for `instanceId` once it arrived. */
async function eventFor(type: string, instanceId: string): Promise<ReceivedDelivery> {
  for (let n = 1; ; n++) {
    const all = await receiver.next(PATH, n);
    const hit = all.find((d) => d.payload?.type === type && d.payload.data.instanceId === instanceId);
    if (hit) return hit;
  }
}

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  world = await startDeliveryWorld(ctx, ['WEBHOOKS', 'FORMS']);
  t = await seedFormsTenant(ctx);
  await createEndpoint(ctx, t.asOwner, receiver, PATH);
});
afterAll(async () => {
  await world?.stop();
  await receiver?.close();
});

describe('form instance events', () => {
  it('draft and cancelled, from the instance routes', async () => {
    const { def } = await publishedForm(ctx, t.asOwner);
    const c = await api.post('/api/form-instances', t.asOwner, { definitionCode: def.code, prefill: { name: PII_SENTINELS.name } });
    expect(c.status, c.text).toBe(201);
    const draft = await eventFor('form.instance.draft', c.json.id);
    expect(draft.payload!.data).toEqual({
      instanceId: c.json.id,
      formCode: def.code,
      definitionVersion: 1,
      state: 'DRAFT',
      previousState: null,
      link: `https://platform.example.com/api/form-instances/${c.json.id}`,
    });
    expect((await api.post(`/api/form-instances/${c.json.id}/cancel`, t.asOwner)).status).toBe(200);
    const cancelled = await eventFor('form.instance.cancelled', c.json.id);
    expect(cancelled.payload!.data).toMatchObject({ state: 'CANCELLED', previousState: 'DRAFT' });
    expect(cancelled.id).not.toBe(draft.id);
  });

  it('submitted from the embed submit, then processed by the durable intake', async () => {
    const { token } = await publishedForm(ctx, t.asOwner);
    const r = await api.post(`/api/public/embed/${token}/submit`, null, { data: { email: PII_SENTINELS.email, name: PII_SENTINELS.name } });
    expect(r.status, r.text).toBe(201);
    const submitted = await eventFor('form.instance.submitted', r.json.id);
    expect(submitted.payload!.data).toMatchObject({ state: 'SUBMITTED', previousState: null });
    const processed = await eventFor('form.instance.processed', r.json.id);
    expect(processed.payload!.data).toMatchObject({ state: 'PROCESSED', previousState: 'SUBMITTED' });
  });

  it('sent, opened by the recipient\'s code, and expired by the sweep', async () => {
    const def = await outboundForm(ctx, t.asOwner);
    const opened = await send(ctx, t.asOwner, def.id);
    expect(opened.r.status, opened.r.text).toBe(201);
    await eventFor('form.instance.sent', opened.r.json.instanceId);
    await openForm(ctx, opened.r.json.token, opened.email);
    const o = await eventFor('form.instance.opened', opened.r.json.instanceId);
    expect(o.payload!.data).toMatchObject({ state: 'OPENED', previousState: 'SENT' });

    const due = await send(ctx, t.asOwner, def.id);
    const dueId = due.r.json.instanceId;
    await ctx.db.sql`update form_instances set expires_at = now() - interval '1 minute' where id = ${dueId}`;
    await world.worker.client.workflow.execute('formExpirySweep', { taskQueue: world.worker.taskQueue, workflowId: `sweep-${dueId}`, args: [{ batchSize: 50 }] });
    const expired = await eventFor('form.instance.expired', dueId);
    expect(expired.payload!.data).toMatchObject({ state: 'EXPIRED', previousState: 'SENT' });
  });

  it('every form state has its event type, all verified, none carrying answers, names or addresses', async () => {
    const got = receiver.received(PATH);
    const types = new Set(got.map((d) => d.payload?.type));
    for (const state of FORM_INSTANCE_STATES) expect(types, state).toContain(`form.instance.${state.toLowerCase()}`);
    expect(got.every((d) => d.verifiedBy.length === 1)).toBe(true);
    for (const d of got) {
      for (const pii of [PII_SENTINELS.email, PII_SENTINELS.name, 'Ann Lee', '@example.test', 'AC-1']) expect(d.body).not.toContain(pii);
    }
  });

  it('a tenant without an endpoint that wants the type writes no webhook event', async () => {
    const quiet = await seedFormsTenant(ctx);
    const picky = await seedFormsTenant(ctx);
    const other = await createEndpoint(ctx, picky.asOwner, receiver, '/picky', { eventTypes: ['phone.call.ended'] });
    for (const tenant of [quiet, picky]) {
      const { def } = await publishedForm(ctx, tenant.asOwner);
      expect((await api.post('/api/form-instances', tenant.asOwner, { definitionCode: def.code })).status).toBe(201);
    }
    const rows = await ctx.db.sql`select count(*)::int as n from webhook_events where tenant_id in (${quiet.id}, ${picky.id})`;
    expect(rows[0]!.n).toBe(0);
    expect(other.id).toBeTruthy();
  });
});
