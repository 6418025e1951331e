// The signatureCeremony process on the real Temporal server, started by the outbox dispatcher:
// cancel (and 409 once terminal), expiry by timer (links refused at once), reminders on a short
// interval, remind 409, re-seal after a FAILED seal (the timestamp authority answers 503 on demand),
// EMAIL_OTP, the legacy path, and SignatureClosure waited for by a real parent workflow.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignatureActivities } from '../../../activities/signatures';
import { workflowIdFor } from '../../../domain/process-contract';
import { createWorkerIntegrations } from '../../../workers/worker-integrations';
import { SEAL_ATTEMPTS_PER_RUN, signatureCeremonyStateQuery } from '../../../workflows/signature-ceremony';
import { client, type Who } from '../../support/app';
import {
  CAMPAIGNS,
  ceremonySchema,
  eventually,
  publishedDefinition,
  seedSignaturesTenant,
  SIGN_BASE,
  openCampaignWorld,
  useCeremonyApp,
  type CeremonyWorld,
} from '../../support/ceremony';
import { expectProblem } from '../../support/fixtures';
import { codeIn, mailTo, waitForMail } from '../../support/mail';
import { bearer, newAddress } from '../../support/outbound';
import { makePng } from '../../support/png';
import { servers } from '../../support/servers';

const CAMPAIGNER = fileURLToPath(new URL('../../support/workflows/signature-campaigner.ts', import.meta.url));

describe('the signatureCeremony process', () => {
  // Reminders every 0.001 h (3.6 s) and re-seal backoff at its 1-minute floor (the re-seal test uses resealNow).
  const ctx = useCeremonyApp({ 'signatures.reminder-interval-hours': 0 });
  const api = client(ctx);
  let world: CeremonyWorld;
  let t: Awaited<ReturnType<typeof seedSignaturesTenant>>;
  let editor: Who;
  let definitionId: string;

  beforeAll(async () => {
    ({ world, t, editor, definitionId } = await openCampaignWorld(ctx));
  });
  afterAll(async () => {
    await world?.stop();
  });

  const people = () => [
    { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
    { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
  ];
  const start = async (body: Record<string, unknown> = {}, definition = definitionId) => {
    const recipients = people();
    const r = await api.post(CAMPAIGNS, editor, { definitionId: definition, recipients, variables: { salary: '1' }, ...body });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, recipients, token };
  };
  const detail = async (id: string) => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;
  const handle = (id: string) => world.worker.client.workflow.getHandle(workflowIdFor('SIGNATURES', t.id, id));
  const running = (id: string) => eventually(() => handle(id).describe().catch(() => null), (d) => d?.status.name === 'RUNNING');
  const sign = (token: string, headers: Record<string, string> = {}) =>
    api.post(`${SIGN_BASE}/${token}`, null, { signaturePng: makePng().toString('base64'), consent: true }, headers);
  const signAll = async (c: Awaited<ReturnType<typeof start>>) => {
    expect((await sign(c.token('employee'))).status).toBe(200);
    await eventually(() => detail(c.id), (d) => d.recipients[1].status === 'R_PENDING');
    expect((await sign(c.token('manager'))).status).toBe(200);
  };

  it('cancel: CANCELLED, the links close at once, the workflow ends, a second cancel is 409', async () => {
    const c = await start();
    await running(c.id);
    const r = await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor);
    expect(r.status, r.text).toBe(200);
    expect(r.json.status).toBe('CANCELLED');
    expectProblem(await api.get(`${SIGN_BASE}/${c.token('employee')}`, null), 404, 'signing-link-not-found');
    const result = await handle(c.id).result();
    expect(result).toMatchObject({ status: 'CANCELLED', sealStatus: null });
    const again = await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor);
    expectProblem(again, 409, 'instance-terminal');
    expect(again.json.instanceStatus).toBe('CANCELLED');
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/recipients/employee/remind`, editor), 409, 'instance-terminal');
  });

  it('expiry: the links are refused once expiresAt passed, and the timer makes the campaign EXPIRED', async () => {
    const c = await start({ expiresAt: new Date(Date.now() + 3000).toISOString() });
    expect((await api.get(`${SIGN_BASE}/${c.token('employee')}`, null)).status).toBe(200);
    await new Promise((r) => setTimeout(r, 3100));
    expectProblem(await api.get(`${SIGN_BASE}/${c.token('employee')}`, null), 404, 'signing-link-not-found');
    expect(await handle(c.id).result()).toMatchObject({ status: 'EXPIRED' });
    const d = await detail(c.id);
    expect(d.status).toBe('EXPIRED');
    expect(d.events.map((e: { action: string }) => e.action)).toContain('expired');
  });

  it('remind: mails the armed recipient again (audited); 409 for a recipient not armed or already signed', async () => {
    const c = await start();
    await waitForMail(c.recipients[0]!.email);
    const r = await api.post(`${CAMPAIGNS}/${c.id}/recipients/employee/remind`, editor);
    expect(r.status, r.text).toBe(200);
    expect(r.json).toEqual({ signerId: 'employee', deliveryStatus: 'SENT' });
    const mails = await waitForMail(c.recipients[0]!.email, 2);
    expect(mails.at(-1)!.subject).toMatch(/^Reminder/);
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/recipients/manager/remind`, editor), 409, 'signature-state-conflict');
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/recipients/nobody/remind`, editor), 404, 'signature-instance-not-found');
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/recipients/employee/remind`, t.as('reader')), 403);
    expect((await sign(c.token('employee'))).status).toBe(200);
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/recipients/employee/remind`, editor), 409, 'signature-state-conflict');
    expect((await detail(c.id)).events.filter((e: { action: string }) => e.action === 'reminded')).toHaveLength(1);
  });

  it('re-seal: a FAILED seal is recorded (reason, no throw), POST /seal is 409 until then, and re-seals at once', async () => {
    const c = await start();
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor), 409, 'signature-state-conflict');
    world.sealer.failing = true;
    try {
      await signAll(c);
      const failed = await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
      expect(failed).toMatchObject({ status: 'COMPLETED', sealError: 'timestamp-unavailable' });
      expectProblem(await api.get(`${CAMPAIGNS}/${c.id}/signed.pdf`, editor), 409, 'signature-state-conflict');
    } finally {
      world.sealer.failing = false;
    }
    const r = await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor);
    expect(r.status, r.text).toBe(202);
    await eventually(() => detail(c.id), (d) => d.sealStatus === 'SEALED');
    expect(await handle(c.id).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED', sealAttempts: 2 });
    expect((await ctx.app.request(`${CAMPAIGNS}/${c.id}/signed.pdf`, { headers: { 'X-User-Id': 'editor', 'X-Tenant-Id': t.id } })).status).toBe(200);
    expectProblem(await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor), 409, 'signature-state-conflict');
  });

  it(`a seal that keeps failing continues as new after ${SEAL_ATTEMPTS_PER_RUN} attempts, and the next run still seals`, async () => {
    const c = await start();
    world.sealer.failing = true;
    const firstRun = (await running(c.id))!.runId;
    const now = async () => {
      // A run answers the query once its first activity told it the campaign's state.
      const state = await handle(c.id).query(signatureCeremonyStateQuery).catch(() => ({ sealAttempts: 0, sealStatus: null }));
      return { run: (await handle(c.id).describe()).runId, attempts: state.sealAttempts, seal: state.sealStatus };
    };
    try {
      await signAll(c);
      await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
      // Each re-seal asks for one more attempt (409 while one is under way); the run changes after the cap.
      for (let i = 0; i < SEAL_ATTEMPTS_PER_RUN * 3 && (await now()).run === firstRun; i++) {
        const before = await now();
        await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor);
        await eventually(now, (x) => x.run !== firstRun || x.attempts > before.attempts);
      }
      expect((await now()).run).not.toBe(firstRun);
      const first = await world.worker.client.workflow.getHandle(handle(c.id).workflowId, firstRun).describe();
      expect(first.status.name).toBe('CONTINUED_AS_NEW');
      // The next run read the campaign as COMPLETED and went straight to sealing.
      await eventually(now, (x) => x.attempts === 1 && x.seal === 'FAILED');
    } finally {
      world.sealer.failing = false;
    }
    await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
    expect((await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor)).status).toBe(202);
    await eventually(() => detail(c.id), (d) => d.sealStatus === 'SEALED');
    expect(await handle(c.id).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
  });

  it('EMAIL_OTP: the session needs the code from the e-mail; a wrong code, no or a wrong access token is the one 404', async () => {
    const otpDefinition = await publishedDefinition(ctx, editor, ceremonySchema('parallel', 'EMAIL_OTP'));
    const c = await start({}, otpDefinition);
    const link = `${SIGN_BASE}/${c.token('employee')}`;
    expectProblem(await api.get(link, null), 404, 'signing-link-not-found');
    await waitForMail(c.recipients[0]!.email);
    expect((await api.post(`${link}/otp`, null)).status).toBe(202);
    const mails = await waitForMail(c.recipients[0]!.email, 2);
    expectProblem(await api.post(`${link}/verify`, null, { code: codeIn(mails.at(-1)!) === '000000' ? '111111' : '000000' }), 404, 'signing-link-not-found');
    const v = await api.post(`${link}/verify`, null, { code: codeIn(mails.at(-1)!) });
    expect(v.status, v.text).toBe(200);
    expectProblem(await api.get(link, null, bearer('wrong-token')), 404, 'signing-link-not-found');
    expect((await api.get(link, null, bearer(v.json.accessToken))).status).toBe(200);
    expect((await sign(c.token('employee'), bearer(v.json.accessToken))).status).toBe(200);
    // The manager verifies by NONE: no code step.
    expect((await api.get(`${SIGN_BASE}/${c.token('manager')}`, null)).status).toBe(200);
    // The code of an unknown token: the same 202, no mail.
    expect((await api.post(`${SIGN_BASE}/${'y'.repeat(43)}/otp`, null)).status).toBe(202);
    expect(await mailTo(c.recipients[1]!.email)).toHaveLength(1);
  });

  it('legacy path: POST /api/signatures is a one-signer campaign; /api/public/sign/{token} signs it', async () => {
    const single = await publishedDefinition(ctx, editor, {
      signers: [{ id: 'customer', label: 'Customer', order: 1 }],
      fields: [{ id: 's', signerId: 'customer', type: 'SIGNATURE', page: 1, x: 72, y: 600, w: 180, h: 50 }],
      variables: [],
      routing: 'sequential',
    });
    const r = await api.post('/api/signatures', editor, { definitionId: single, recipient: { name: 'Carl Customer', email: newAddress('legacy') } });
    expect(r.status, r.text).toBe(201);
    expect(r.json.recipients).toHaveLength(1);
    const token = r.json.recipients[0].token;
    expect((await api.get(`/api/public/sign/${token}`, null)).status).toBe(200);
    expect((await api.post(`/api/public/sign/${token}`, null, { typedName: 'Carl Customer', consent: true })).json.instanceStatus).toBe('COMPLETED');
    await eventually(() => detail(r.json.id), (d) => d.sealStatus === 'SEALED');
    const two = await api.post('/api/signatures', editor, { definitionId, recipient: { name: 'X', email: newAddress() }, variables: { salary: '1' } });
    expectProblem(two, 400, 'signing-input-invalid');
  });

  it('SignatureClosure: a parent workflow starts the campaign through the activity and hears its closure once sealed', async () => {
    const connection = await Connection.connect({ address: servers().temporalAddress });
    const temporal = new Client({ connection });
    const native = await NativeConnection.connect({ address: servers().temporalAddress });
    const taskQueue = `tq-campaigner-${randomUUID()}`;
    const activities = createSignatureActivities(createWorkerIntegrations({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3: ctx.deps.s3, sealPdf: world.sealer.sealPdf }));
    const worker = await Worker.create({ connection: native, taskQueue, workflowsPath: CAMPAIGNER, activities });
    const run = worker.run();
    try {
      const recipients = people();
      const parent = await temporal.workflow.start('signatureCampaigner', {
        taskQueue,
        workflowId: `campaigner-${randomUUID()}`,
        args: [{ start: { tenantId: t.id, definitionId, recipients, variables: { salary: '1' } }, wait: '2 minutes' }],
      });
      const [link] = await waitForMail(recipients[0]!.email);
      const first = /\/sign\/([A-Za-z0-9_-]+)/.exec(link!.text)![1]!;
      expect((await sign(first)).status).toBe(200);
      const [second] = await waitForMail(recipients[1]!.email);
      expect((await sign(/\/sign\/([A-Za-z0-9_-]+)/.exec(second!.text)![1]!)).status).toBe(200);
      const result = await parent.result();
      expect(result.closure).toMatchObject({ instanceId: result.instanceId, status: 'COMPLETED', sealStatus: 'SEALED', sealedDocumentId: expect.any(String) });
      const d = await detail(result.instanceId);
      expect(d).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED', createdBy: `workflow:${parent.workflowId}` });
    } finally {
      worker.shutdown();
      await run;
      await native.close();
      await connection.close();
    }
  });
});
