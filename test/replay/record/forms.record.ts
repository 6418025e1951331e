// Records the forms processes for the replay corpus on the event rail (test/support/form-rail.ts):
// formIntake of an embed submission with attachments (uploaded and linked over the public routes,
// PDF rendered in Chromium), with `workflow:<type>` handling and with an unknown handling; an
// outbound form sent and waited for by a workflow, answered by the recipient over HTTP, and one
// that expires through the formExpirySweep.
import { randomBytes, randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOutboundFormActivities } from '../../../activities/outbound-forms';
import { workflowIdFor } from '../../../db/outbox';
import { mailerFor } from '../../../integrations/mail/mailer';
import { client, useTestApp } from '../../support/app';
import { multipart, patterned, testS3Client } from '../../support/documents';
import { startFormRail } from '../../support/form-rail';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';
import { smtpUrl, waitForMail } from '../../support/mail';
import { bearer, newAddress, openForm, outboundForm, send } from '../../support/outbound';
import { startTestWorker, type TestWorker } from '../../support/temporal';
import { saveHistory } from './save-history';

const OUTBOUND_RAIL = fileURLToPath(new URL('../../support/workflows/outbound-rail.ts', import.meta.url));

describe('record: formIntake', () => {
  const s3 = testS3Client();
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, deps: { s3 } });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    rail = await startFormRail(ctx);
    t = await seedFormsTenant(ctx);
  });
  afterAll(async () => {
    await rail?.stop();
  });

  const submit = async (token: string, body: Record<string, unknown>) => {
    const r = await client(ctx).post(`/api/public/embed/${token}/submit`, null, body);
    expect(r.status, r.text).toBe(201);
    return r.json.id as string;
  };
  const runIntake = async (id: string, path: string) => {
    await rail.dispatcher.dispatchOnce();
    const workflowId = workflowIdFor('FORMS', t.id, id);
    const result = await rail.client.workflow.getHandle(workflowId).result();
    await saveHistory(rail.client, { workflowId }, path);
    return result;
  };
  /** An attachment as the embed helper uploads it: the token and the session are the only credentials. */
  const uploadAttachment = async (token: string, session: string, filename: string) => {
    const m = multipart({ fields: {}, file: { filename, data: patterned(1500), contentType: 'application/pdf' } });
    const res = await ctx.app.request('/api/public/documents', {
      method: 'POST',
      headers: { 'X-Embed-Token': token, 'X-Embed-Session': session, 'Content-Type': m.contentType, 'Content-Length': String(m.length) },
      body: Buffer.concat([m.head, m.data, m.tail]),
    });
    expect(res.status, await res.clone().text()).toBe(201);
  };

  it('attachments mirrored, PDF rendered, stored', async () => {
    const { token } = await publishedForm(ctx, t.asOwner, { submissionHandling: 'store' });
    const session = `emb_${randomBytes(16).toString('base64url')}`;
    await uploadAttachment(token, session, 'id-card.pdf');
    await uploadAttachment(token, session, 'payslip.pdf');
    const id = await submit(token, { data: { name: 'Ada Lovelace', email: 'ada@example.com' }, processRef: session });
    const linked = await client(ctx).post('/api/public/documents/link', null, { processRef: session, instanceId: id }, { 'X-Embed-Token': token });
    expect(linked.status, linked.text).toBe(200);
    expect(await runIntake(id, 'attachments-and-pdf')).toMatchObject({ outcome: 'stored' });
  });

  it('workflow:<type> handling starts the named workflow', async () => {
    const { token } = await publishedForm(ctx, t.asOwner, { submissionHandling: 'workflow:submissionReceiver' });
    const id = await submit(token, { data: { name: 'Grace', email: 'grace@example.com' } });
    expect(await runIntake(id, 'workflow-handling')).toMatchObject({ outcome: 'workflow-started' });
  });

  it('an unknown handling is recorded as a failure', async () => {
    const { token } = await publishedForm(ctx, t.asOwner, { submissionHandling: 'carrier-pigeon' });
    const id = await submit(token, { data: { email: 'cy@example.com' } });
    expect(await runIntake(id, 'unknown-handling')).toMatchObject({ outcome: 'failed' });
  });
});

describe('record: outbound forms and the expiry sweep', () => {
  const ctx = useTestApp({ 'mail.smtp-url': smtpUrl(), 'forms.submission-pdf': false });
  const outboundActivities = () => createOutboundFormActivities({ db: ctx.db.db, settings: ctx.settings, mailer: mailerFor(ctx.settings), logger: pino({ level: 'silent' }) });
  let rail: Awaited<ReturnType<typeof startFormRail>>;
  let platform: TestWorker;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;
  let def: { id: string; code: string };

  beforeAll(async () => {
    rail = await startFormRail(ctx, {}, { workflowsPath: OUTBOUND_RAIL, activities: outboundActivities });
    platform = await startTestWorker(outboundActivities());
    t = await seedFormsTenant(ctx);
    def = await outboundForm(ctx, t.asOwner);
  });
  afterAll(async () => {
    await platform?.stop();
    await rail?.stop();
  });

  const startSender = async (email: string) => {
    const workflowId = `sender-${randomUUID()}`;
    const handle = await rail.client.workflow.start('outboundSender', {
      taskQueue: rail.taskQueue,
      workflowId,
      args: [{ send: { tenantId: t.id, definitionCode: def.code, recipient: { email }, prefill: { account: 'AC-3' } }, wait: '10 minutes' }],
    });
    const [mail] = await waitForMail(email);
    const [row] = await ctx.db.db.execute<{ id: string }>(sql`select id from form_instances where context->>'waitingWorkflowId' = ${workflowId}`);
    return { handle, workflowId, instanceId: row!.id, token: /\/respond\/([A-Za-z0-9_-]+)/.exec(mail!.text)![1]! };
  };

  it('answered by the recipient over HTTP', async () => {
    const email = newAddress('rail');
    const sender = await startSender(email);
    const access = await openForm(ctx, sender.token, email);
    const submit = await client(ctx).post(`/api/public/form-instances/${sender.token}/submit`, null, { data: { answer: 'Confirmed', amount: 12 } }, bearer(access));
    expect(submit.status, submit.text).toBe(200);
    await rail.drain();
    expect((await sender.handle.result()).event).toMatchObject({ state: 'SUBMITTED' });
    await saveHistory(rail.client, { workflowId: sender.workflowId }, 'answered');
  });

  it('expired by the sweep (which runs two batches)', async () => {
    const sender = await startSender(newAddress('late'));
    const others = [(await send(ctx, t.asOwner, def.id)).r.json.instanceId, (await send(ctx, t.asOwner, def.id)).r.json.instanceId];
    await ctx.db.sql`update form_instances set expires_at = now() - interval '1 minute' where id = any(${[sender.instanceId, ...others]}::uuid[])`;
    const workflowId = `sweep-${randomUUID()}`;
    const report = await platform.client.workflow.execute('formExpirySweep', { taskQueue: platform.taskQueue, workflowId, args: [{ batchSize: 2 }] });
    expect(report).toMatchObject({ expired: 3, batches: 2 });
    await saveHistory(platform.client, { workflowId }, 'batches');
    await rail.drain();
    expect((await sender.handle.result()).event).toMatchObject({ state: 'EXPIRED' });
    await saveHistory(rail.client, { workflowId: sender.workflowId }, 'expired');
  });
});
