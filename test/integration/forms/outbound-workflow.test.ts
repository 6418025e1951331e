// Workflow-sent outbound forms and the expiry sweep on the real Temporal server: the activity
// sends (SENT, mail over real SMTP, the instance names the workflow), the helper waits for the
// rail's formInstanceEvent signal (sent here by hand; the rail itself is another piece of work);
// the sweep moves open instances past expiresAt to EXPIRED in batches; its schedule is created.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { sql } from 'drizzle-orm';
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFormActivities } from '../../../activities/outbound-forms';
import { FormInstanceEventSignal, type FormInstanceEvent } from '../../../domain/forms/instance-events';
import { ensureSchedule, FORM_EXPIRY_SWEEP_SCHEDULE_ID, formExpirySweepSchedule } from '../../../workers/schedules';
import { client, useTestApp } from '../../support/app';
import { seedFormsTenant } from '../../support/forms';
import { smtpUrl, waitForMail } from '../../support/mail';
import { newAddress, outboundForm, send } from '../../support/outbound';
import { servers } from '../../support/servers';
import { startTestWorker, type TestWorker } from '../../support/temporal';

const SENDER = fileURLToPath(new URL('../../support/workflows/outbound-sender.ts', import.meta.url));

describe('outbound forms from workflows, and the expiry sweep', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl() });
  let platform: TestWorker;
  let connection: Connection;
  let temporal: Client;
  let native: NativeConnection;
  let sender: Worker;
  let running: Promise<void>;
  const taskQueue = `tq-outbound-${randomBytes(4).toString('hex')}`;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };

  beforeAll(async () => {
    const activities = createOutboundFormActivities({ db: ctx.db.db, settings: ctx.settings, mailer: ctx.deps.mailer, logger: pino({ level: 'silent' }) });
    platform = await startTestWorker(activities);
    connection = await Connection.connect({ address: servers().temporalAddress });
    temporal = new Client({ connection });
    native = await NativeConnection.connect({ address: servers().temporalAddress });
    sender = await Worker.create({ connection: native, taskQueue, workflowsPath: SENDER, activities });
    running = sender.run();
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });
  afterAll(async () => {
    await platform?.client.schedule.getHandle(FORM_EXPIRY_SWEEP_SCHEDULE_ID).delete().catch(() => undefined);
    sender?.shutdown();
    await running;
    await native?.close();
    await connection?.close();
    await platform?.stop();
  });

  const instanceOf = async (workflowId: string) => {
    for (let i = 0; i < 200; i++) {
      const [row] = await ctx.db.db.execute<{ id: string }>(sql`select id from form_instances where context->>'waitingWorkflowId' = ${workflowId}`);
      if (row) return (await client(ctx).get(`/api/form-instances/${row.id}`, t.asOwner)).json;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error('no instance');
  };
  const event = (instanceId: string, state: FormInstanceEvent['state'], eventId = randomUUID()): FormInstanceEvent => ({
    eventId,
    instanceId,
    formCode: def.code,
    eventType: state.toLowerCase() as FormInstanceEvent['eventType'],
    state,
    at: new Date().toISOString(),
  });

  it('sendOutboundForm: the instance is SENT, the mail arrived, its context names the workflow; the helper returns on SUBMITTED', async () => {
    const email = newAddress('wf');
    const workflowId = `sender-${randomUUID()}`;
    const handle = await temporal.workflow.start('outboundSender', {
      taskQueue,
      workflowId,
      args: [{ send: { tenantId: t.id, definitionCode: def.code, recipient: { email }, prefill: { account: 'AC-7' } }, wait: '1 minute' }],
    });
    const inst = await instanceOf(workflowId);
    expect(inst).toMatchObject({ state: 'SENT', origin: 'OUTBOUND', prefill: { account: 'AC-7' }, context: { waitingWorkflowId: workflowId } });
    const [mail] = await waitForMail(email);
    expect(mail!.text).toContain(`/respond/`);
    const opened = event(inst.id, 'OPENED');
    const submitted = event(inst.id, 'SUBMITTED');
    await handle.signal(FormInstanceEventSignal.name, opened);
    await handle.signal(FormInstanceEventSignal.name, submitted);
    await handle.signal(FormInstanceEventSignal.name, submitted);
    const result = await handle.result();
    expect(result.sent).toEqual({ instanceId: inst.id, expiresAt: expect.any(String), deliveryStatus: 'SENT' });
    expect(result.event).toEqual(submitted);
    // The recipient's link is their credential: it stays out of the workflow's history.
    const token = /\/respond\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]!;
    expect(JSON.stringify((await handle.fetchHistory()).events)).not.toContain(token);
    const [count] = await ctx.db.db.execute<{ n: number }>(sql`select count(*)::int as n from form_instances where context->>'waitingWorkflowId' = ${workflowId}`);
    expect(count!.n).toBe(1);
  });

  it('awaitFormSubmitted answers null when the timeout passes first', async () => {
    const result = await temporal.workflow.execute('outboundSender', {
      taskQueue,
      workflowId: `sender-${randomUUID()}`,
      args: [{ send: { tenantId: t.id, definitionId: def.id, recipient: { email: newAddress('wf') } }, wait: '1 second' }],
    });
    expect(result.event).toBeNull();
  });

  it('the sweep moves open instances past expiresAt to EXPIRED in batches; others stay', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await send(ctx, t.asOwner, def.id)).r.json.instanceId);
    const api = client(ctx);
    const draft = (await api.post('/api/form-instances', t.asOwner, { definitionId: def.id })).json.id;
    const [due1, due2, due3, future] = ids as [string, string, string, string];
    await ctx.db.db.execute(sql`update form_instances set state = 'OPENED' where id = ${due2}`);
    await ctx.db.db.execute(sql`update form_instances set state = 'SUBMITTED' where id = ${due3}`);
    await ctx.db.sql`update form_instances set expires_at = now() - interval '1 minute' where id = any(${[due1, due2, due3, draft]}::uuid[])`;
    const report = await platform.client.workflow.execute('formExpirySweep', {
      taskQueue: platform.taskQueue,
      workflowId: `sweep-${randomUUID()}`,
      args: [{ batchSize: 2 }],
    });
    expect(report).toMatchObject({ expired: 3, batches: 2, byTenant: { [t.id]: 3 } });
    const state = async (id: string) => (await api.get(`/api/form-instances/${id}`, t.asOwner)).json.state;
    expect([await state(due1), await state(due2), await state(draft), await state(due3), await state(future)]).toEqual(['EXPIRED', 'EXPIRED', 'EXPIRED', 'SUBMITTED', 'SENT']);
  });

  it('its Temporal Schedule is created from the settings', async () => {
    expect(await ensureSchedule(platform.client, formExpirySweepSchedule, { ...ctx.settings, 'forms.expiry-sweep.enabled': true, 'forms.expiry-sweep.cron': '*/7 * * * *' })).toBe('created');
    const described = await platform.client.schedule.getHandle(FORM_EXPIRY_SWEEP_SCHEDULE_ID).describe();
    expect(described.action).toMatchObject({ workflowType: 'formExpirySweep', args: [{ batchSize: 500 }] });
    expect(described.state.note).toBe('formExpirySweep moves open form instances past expiresAt to EXPIRED, 500 per batch');
  });
});
