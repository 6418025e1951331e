// End to end on the real Temporal server, nothing sent by hand: a workflow sends an outbound form
// (sendOutboundForm) and waits (awaitFormSubmitted); the recipient answers over HTTP (code request,
// the code from the real e-mail, verification, submit); the event rail's correlator turns each
// lifecycle change into a formInstanceEvent signal row, the outbox dispatcher delivers it, and the
// workflow completes with the SUBMITTED event. The submission's formIntake runs to PROCESSED.
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFormActivities } from '../../../activities/outbound-forms';
import { workflowIdFor } from '../../../db/outbox';
import { mailerFor } from '../../../integrations/mail/mailer';
import { client, useTestApp } from '../../support/app';
import { startFormRail } from '../../support/form-rail';
import { seedFormsTenant } from '../../support/forms';
import { smtpUrl, waitForMail } from '../../support/mail';
import { bearer, newAddress, openForm, outboundForm } from '../../support/outbound';

const WORKFLOWS = fileURLToPath(new URL('../../support/workflows/outbound-rail.ts', import.meta.url));

describe('outbound form, recipient and event rail end to end', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'forms.submission-pdf': false });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };

  beforeAll(async () => {
    rail = await startFormRail(ctx, {}, {
      workflowsPath: WORKFLOWS,
      activities: (settings) => createOutboundFormActivities({ db: ctx.db.db, settings, mailer: mailerFor(settings), logger: pino({ level: 'silent' }) }),
    });
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });
  afterAll(async () => {
    await rail?.stop();
  });

  it('the workflow sends, the recipient answers over HTTP, the rail signals, the workflow completes with SUBMITTED; the intake runs', async () => {
    const email = newAddress('rail');
    const workflowId = `sender-${randomUUID()}`;
    const handle = await rail.client.workflow.start('outboundSender', {
      taskQueue: rail.taskQueue,
      workflowId,
      args: [{ send: { tenantId: t.id, definitionCode: def.code, recipient: { email }, prefill: { account: 'AC-3' } }, wait: '5 minutes' }],
    });

    // The activity's send: the link's mail names the instance token.
    const [sentMail] = await waitForMail(email);
    const token = /\/respond\/([A-Za-z0-9_-]+)/.exec(sentMail!.text)![1]!;
    const [row] = await ctx.db.db.execute<{ id: string }>(sql`select id from form_instances where context->>'waitingWorkflowId' = ${workflowId}`);
    const instanceId = row!.id;

    // The recipient, over HTTP as the respond page does it.
    const api = client(ctx);
    const access = await openForm(ctx, token, email);
    const view = await api.get(`/api/public/form-instances/${token}`, null, bearer(access));
    expect(view.json).toMatchObject({ prefill: { account: 'AC-3' }, state: 'OPENED' });
    const submit = await api.post(`/api/public/form-instances/${token}/submit`, null, { data: { answer: 'Confirmed', amount: 12 } }, bearer(access));
    expect(submit.status, submit.text).toBe(200);

    // The rail and the outbox deliver the signals (SENT, OPENED, SUBMITTED) and start the intake.
    await rail.drain();
    const result = await handle.result();
    expect(result.sent).toMatchObject({ instanceId, deliveryStatus: 'SENT' });
    expect(result.event).toMatchObject({ instanceId, formCode: def.code, eventType: 'submitted', state: 'SUBMITTED' });

    const intake = await rail.client.workflow.getHandle(workflowIdFor('FORMS', t.id, instanceId)).result();
    expect(intake).toMatchObject({ instanceId });
    await rail.drain();
    const [done] = await ctx.db.sql`select state, data from form_instances where id = ${instanceId}`;
    expect(done).toMatchObject({ state: 'PROCESSED', data: { account: 'AC-3', answer: 'Confirmed', amount: 12 } });

    // Read once the intake is done: its PROCESSED is an event (and a signal) too, which a busy
    // machine can also commit before the sender's result is read. Each event went out; the sender
    // got the three it waited on, and PROCESSED came after it completed (undeliverable) unless it
    // caught the sender's last workflow task.
    const events = await ctx.db.sql`select event_type, state from form_event_outbox where instance_id = ${instanceId} order by seq`;
    expect(events.map((e) => [e.event_type, e.state])).toEqual([['sent', 'SENT'], ['opened', 'SENT'], ['submitted', 'SENT'], ['processed', 'SENT']]);
    const signals = (await ctx.db.sql`select state from outbox where workflow_id = ${workflowId} and verb = 'signal' order by seq`).map((s) => s.state);
    expect(signals.slice(0, 3)).toEqual(['DELIVERED', 'DELIVERED', 'DELIVERED']);
    expect(signals).toHaveLength(4);
    expect(['DELIVERED', 'UNDELIVERABLE']).toContain(signals[3]);
  });
});
