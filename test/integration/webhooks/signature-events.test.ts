// signature.recipient.signed and signature.instance.completed|sealed|seal_failed|cancelled|expired,
// each from a real campaign on the signatureCeremony process (the production sealer, the local
// timestamp authority stand-in), delivered to a subscribed endpoint and verified with
// standardwebhooks; no signer's name or address in any payload.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, type Who } from '../../support/app';
import { CAMPAIGNS, eventually, openCampaignWorld, SIGN_BASE, useCeremonyApp, type CeremonyWorld } from '../../support/ceremony';
import { newAddress } from '../../support/outbound';
import { makePng } from '../../support/png';
import { testDispatcher } from '../../support/temporal';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, WEBHOOK_SETTINGS } from './webhook-world';

const ctx = useCeremonyApp({ ...WEBHOOK_SETTINGS, 'signatures.reminder-interval-hours': 0 });
const api = client(ctx);
const PATH = '/signatures';
let receiver: WebhookReceiver;
let world: CeremonyWorld;
let webhooks: ReturnType<typeof testDispatcher>;
let owner: Who;
let editor: Who;
let definitionId: string;

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  let t;
  ({ world, t, editor, definitionId } = await openCampaignWorld(ctx));
  owner = t.asOwner;
  webhooks = testDispatcher(ctx, world.worker, ['WEBHOOKS']);
  await webhooks.start();
  await createEndpoint(ctx, owner, receiver, PATH, {
    eventTypes: ['signature.recipient.signed', 'signature.instance.completed', 'signature.instance.sealed', 'signature.instance.seal_failed', 'signature.instance.cancelled', 'signature.instance.expired'],
  });
}, 180_000);
afterAll(async () => {
  await webhooks?.stop();
  await world?.stop();
  await receiver?.close();
});

const NAMES = ['Eva Employee', 'Mara Manager'];
const start = async (body: Record<string, unknown> = {}) => {
  const recipients = [
    { signerId: 'employee', name: NAMES[0], email: newAddress('emp') },
    { signerId: 'manager', name: NAMES[1], email: newAddress('mgr') },
  ];
  const r = await api.post(CAMPAIGNS, editor, { definitionId, recipients, variables: { salary: '1' }, ...body });
  expect(r.status, r.text).toBe(201);
  const token = (signerId: string) => r.json.recipients.find((x: { signerId: string }) => x.signerId === signerId).token as string;
  return { id: r.json.id as string, recipients, token };
};
const sign = (token: string) => api.post(`${SIGN_BASE}/${token}`, null, { signaturePng: makePng().toString('base64'), consent: true });
const signAll = async (c: Awaited<ReturnType<typeof start>>) => {
  expect((await sign(c.token('employee'))).status).toBe(200);
  await eventually(() => api.get(`${CAMPAIGNS}/${c.id}`, editor).then((r) => r.json), (d) => d.recipients[1].status === 'R_PENDING');
  expect((await sign(c.token('manager'))).status).toBe(200);
};

/** Resolves with the deliveries of `type` for `instanceId` once `count` of them arrived. */
async function events(type: string, instanceId: string, count = 1): Promise<ReceivedDelivery[]> {
  for (let n = 1; ; n++) {
    const hits = (await receiver.next(PATH, n)).filter((d) => d.payload?.type === type && d.payload.data.instanceId === instanceId);
    if (hits.length >= count) return hits;
  }
}

describe('signature events', () => {
  it('signed per recipient, then completed and sealed', async () => {
    const c = await start();
    await signAll(c);
    const signed = await events('signature.recipient.signed', c.id, 2);
    expect(signed.map((d) => d.payload!.data.signerId)).toEqual(['employee', 'manager']);
    expect(signed[0]!.payload!.data).toEqual({
      instanceId: c.id,
      definitionId,
      version: 1,
      signerId: 'employee',
      status: 'R_SIGNED',
      link: `https://platform.example.com/api/signature-instances/${c.id}`,
    });
    const [completed] = await events('signature.instance.completed', c.id);
    expect(completed!.payload!.data).toMatchObject({ status: 'COMPLETED', sealStatus: null });
    const [sealed] = await events('signature.instance.sealed', c.id);
    expect(sealed!.payload!.data).toMatchObject({ status: 'COMPLETED', sealStatus: 'SEALED' });
  });

  it('seal_failed when the timestamp authority refuses', async () => {
    const c = await start();
    world.sealer.failing = true;
    try {
      await signAll(c);
      const [failed] = await events('signature.instance.seal_failed', c.id);
      expect(failed!.payload!.data).toMatchObject({ status: 'COMPLETED', sealStatus: 'FAILED' });
    } finally {
      world.sealer.failing = false;
    }
  });

  it('cancelled, and expired by the ceremony\'s timer', async () => {
    const c = await start();
    expect((await api.post(`${CAMPAIGNS}/${c.id}/cancel`, editor)).status).toBe(200);
    const [cancelled] = await events('signature.instance.cancelled', c.id);
    expect(cancelled!.payload!.data).toMatchObject({ status: 'CANCELLED' });
    const e = await start({ expiresAt: new Date(Date.now() + 2_000).toISOString() });
    const [expired] = await events('signature.instance.expired', e.id);
    expect(expired!.payload!.data).toMatchObject({ status: 'EXPIRED' });
  });

  it('every delivery verified; no signer name or address in any payload', async () => {
    const got = receiver.received(PATH);
    expect(new Set(got.map((d) => d.payload?.type)).size).toBe(6);
    for (const d of got) {
      expect(d.verifiedBy).toEqual([0]);
      for (const name of NAMES) expect(d.body).not.toContain(name);
      expect(d.body).not.toContain('@');
    }
  });
});
