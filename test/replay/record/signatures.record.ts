// Records signatureCeremony runs for the replay corpus through the public API, the outbox
// dispatcher and a platform worker (test/support/ceremony.ts): sequential and parallel routing to
// the seal, expiry by timer, cancel, and a seal that keeps failing until the run continues as new.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIdFor } from '../../../domain/process-contract';
import { SEAL_ATTEMPTS_PER_RUN, signatureCeremonyStateQuery } from '../../../workflows/signature-ceremony';
import { client, type Who } from '../../support/app';
import { CAMPAIGNS, ceremonySchema, eventually, openCampaignWorld, publishedDefinition, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { newAddress } from '../../support/outbound';
import { makePng } from '../../support/png';
import { saveHistory } from './save-history';

describe('record: signatureCeremony', () => {
  const ctx = useCeremonyApp({ 'signatures.reminder-interval-hours': 0 });
  const api = client(ctx);
  let world: CeremonyWorld;
  let tenantId: string;
  let editor: Who;
  let definitionId: string;

  beforeAll(async () => {
    const opened = await openCampaignWorld(ctx);
    ({ world, editor, definitionId } = opened);
    tenantId = opened.t.id;
  });
  afterAll(async () => {
    await world?.stop();
  });

  const start = async (body: Record<string, unknown> = {}, definition = definitionId) => {
    const recipients = [
      { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
      { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
    ];
    const r = await api.post(CAMPAIGNS, editor, { definitionId: definition, recipients, variables: { salary: '1' }, ...body });
    expect(r.status, r.text).toBe(201);
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    return { id: r.json.id as string, token };
  };
  const handle = (id: string, runId?: string) => world.worker.client.workflow.getHandle(workflowIdFor('SIGNATURES', tenantId, id), runId);
  const running = (id: string) => eventually(() => handle(id).describe().catch(() => null), (d) => d?.status.name === 'RUNNING');
  /** The dispatcher starts the ceremony a moment after the campaign's commit. */
  const started = (id: string) => eventually(() => handle(id).describe().catch(() => null), (d) => d !== null);
  const detail = async (id: string) => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;
  const sign = async (token: string) => {
    const r = await api.post(`${SIGN_BASE}/${token}`, null, { signaturePng: makePng().toString('base64'), consent: true });
    expect(r.status, r.text).toBe(200);
  };
  const signInOrder = async (c: Awaited<ReturnType<typeof start>>) => {
    await sign(c.token('employee'));
    await eventually(() => detail(c.id), (d) => d.recipients[1].status === 'R_PENDING');
    await sign(c.token('manager'));
  };
  const save = (id: string, path: string, runId?: string) => saveHistory(world.worker.client, { workflowId: handle(id).workflowId, runId }, path);

  it('sequential: the employee, then the manager, sealed', async () => {
    const c = await start();
    await signInOrder(c);
    expect(await handle(c.id).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
    await save(c.id, 'sequential-sealed');
  });

  it('parallel: both armed at once, sealed', async () => {
    const c = await start({}, await publishedDefinition(ctx, editor, ceremonySchema('parallel')));
    await Promise.all([sign(c.token('employee')), sign(c.token('manager'))]);
    expect(await handle(c.id).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
    await save(c.id, 'parallel-sealed');
  });

  it('expired by its timer', async () => {
    const c = await start({ expiresAt: new Date(Date.now() + 3000).toISOString() });
    await started(c.id);
    expect(await handle(c.id).result()).toMatchObject({ status: 'EXPIRED' });
    await save(c.id, 'expired');
  });

  it('cancelled', async () => {
    const c = await start();
    await running(c.id);
    expect((await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor)).status).toBe(200);
    expect(await handle(c.id).result()).toMatchObject({ status: 'CANCELLED' });
    await save(c.id, 'cancelled');
  });

  it(`a seal failing ${SEAL_ATTEMPTS_PER_RUN} times continues as new; the next run seals`, async () => {
    const c = await start();
    const firstRun = (await running(c.id))!.runId;
    const now = async () => {
      const state = await handle(c.id).query(signatureCeremonyStateQuery).catch(() => ({ sealAttempts: 0 }));
      return { run: (await handle(c.id).describe()).runId, attempts: state.sealAttempts };
    };
    world.sealer.failing = true;
    try {
      await signInOrder(c);
      await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
      // Each re-seal asks for one attempt at once instead of after the backoff.
      while ((await now()).run === firstRun) {
        const before = await now();
        await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor);
        await eventually(now, (x) => x.run !== firstRun || x.attempts > before.attempts);
      }
      await eventually(now, (x) => x.attempts === 1);
    } finally {
      world.sealer.failing = false;
    }
    await save(c.id, 'seal-failing-continued-as-new', firstRun);
    await eventually(() => detail(c.id), (d) => d.sealStatus === 'FAILED');
    expect((await api.post(`${CAMPAIGNS}/${c.id}/seal`, editor)).status).toBe(202);
    expect(await handle(c.id).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
    await save(c.id, 'sealed-after-continue-as-new');
  });
});

describe('record: signatureCeremony with reminders', () => {
  // 0.001 h: a reminder every 3.6 s.
  const ctx = useCeremonyApp({ 'signatures.reminder-interval-hours': 0.001 });
  const api = client(ctx);
  let world: CeremonyWorld;
  let opened: Awaited<ReturnType<typeof openCampaignWorld>>;

  beforeAll(async () => {
    opened = await openCampaignWorld(ctx);
    world = opened.world;
  });
  afterAll(async () => {
    await world?.stop();
  });

  it('reminded, then signed by both and sealed', async () => {
    const { t, editor, definitionId } = opened;
    const r = await api.post(CAMPAIGNS, editor, {
      definitionId,
      recipients: [
        { signerId: 'employee', name: 'Eva Employee', email: newAddress('emp') },
        { signerId: 'manager', name: 'Mara Manager', email: newAddress('mgr') },
      ],
      variables: { salary: '1' },
    });
    expect(r.status, r.text).toBe(201);
    const id = r.json.id as string;
    const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
    const detail = async () => (await api.get(`${CAMPAIGNS}/${id}`, editor)).json;
    await eventually(detail, (d) => d.events.some((e: { action: string }) => e.action === 'reminded'));
    const sign = (tok: string) => api.post(`${SIGN_BASE}/${tok}`, null, { signaturePng: makePng().toString('base64'), consent: true });
    expect((await sign(token('employee'))).status).toBe(200);
    await eventually(detail, (d) => d.recipients[1].status === 'R_PENDING');
    expect((await sign(token('manager'))).status).toBe(200);
    const workflowId = workflowIdFor('SIGNATURES', t.id, id);
    expect(await world.worker.client.workflow.getHandle(workflowId).result()).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
    await saveHistory(world.worker.client, { workflowId }, 'reminded-then-sealed');
  });
});
