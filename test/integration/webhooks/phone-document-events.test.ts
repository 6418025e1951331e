// phone.call.ended from the provider's end-of-call-report, and document.ready and
// document.quarantined from real uploads (the second scanned by a real clamd), delivered to a
// subscribed endpoint and verified with standardwebhooks; no customer number or file name in any.
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../api/app';
import { INTERNAL_KEY } from '../../support/app';
import { CLAMD_TEST_MARKER, startClamd, type RunningClamd } from '../../support/clamd';
import { docApi, formFields, ResponseRecorder, testS3Client } from '../../support/documents';
import { seedTenant } from '../../support/fixtures';
import { postWebhook, seedTrackedCall, usePhoneApp } from '../../support/phone';
import { endOfCallReport } from '../../stand-ins/vapi/messages';
import { startWebhookReceiver, type ReceivedDelivery, type WebhookReceiver } from '../../stand-ins/webhook-receiver/server';
import { createEndpoint, startDeliveryWorld, WEBHOOK_SETTINGS, type DeliveryWorld } from './webhook-world';

const ctx = usePhoneApp({ ...WEBHOOK_SETTINGS, 'docstore.scan': 'clamav', deps: { s3: testS3Client() } });
const docs = docApi(() => ctx.app, new ResponseRecorder(), INTERNAL_KEY);
const PATH = '/ops';
let receiver: WebhookReceiver;
let world: DeliveryWorld;
let clamd: RunningClamd;
let dir: string;
let t: Awaited<ReturnType<typeof seedTenant>>;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'webhook-clamd-'));
  clamd = await startClamd({ dir, maxBytes: 1024 * 1024 });
  ctx.settings['docstore.clamav-port'] = clamd.port;
  // Rebuilt so its scanner dials this clamd (the port is known only now).
  ctx.app = createApp(ctx.deps);
  receiver = await startWebhookReceiver();
  world = await startDeliveryWorld(ctx);
  t = await seedTenant(ctx, { members: ['writer'], subscribe: ['PHONE', 'FORMS'], grants: [{ user: 'writer', code: 'FORMS', level: 'read-write' }] });
  await createEndpoint(ctx, t.asOwner, receiver, PATH, { eventTypes: ['phone.call.ended', 'document.ready', 'document.quarantined'] });
}, 180_000);
afterAll(async () => {
  await world?.stop();
  await receiver?.close();
  await clamd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

async function eventWhere(match: (d: ReceivedDelivery) => boolean): Promise<ReceivedDelivery> {
  for (let n = 1; ; n++) {
    const hit = (await receiver.next(PATH, n)).find(match);
    if (hit) return hit;
  }
}

describe('phone and document events', () => {
  it('phone.call.ended once per call, at its first terminal status', async () => {
    const call = await seedTrackedCall(ctx, t.id, 'IN_PROGRESS');
    const report = endOfCallReport({ callId: call.providerCallId, endedReason: 'customer-ended-call', transcript: 'AI: Hello', customerNumber: '+14155550142' });
    expect((await postWebhook(ctx, report)).status).toBe(200);
    // The provider redelivers: the call is terminal already, so no second event.
    expect((await postWebhook(ctx, report)).status).toBe(200);
    const ended = await eventWhere((d) => d.payload?.type === 'phone.call.ended' && d.payload.data.callId === call.id);
    expect(ended.payload!.data).toEqual({
      callId: call.id,
      direction: 'OUTBOUND',
      status: 'ENDED',
      endedReason: 'customer-ended-call',
      startedAt: null,
      endedAt: expect.stringMatching(/Z$/),
      firstCallId: call.id,
      attempt: 1,
      link: `https://platform.example.com/api/phone-calls/${call.id}`,
    });
    expect(ended.body).not.toContain('+14155550142');
    expect(ended.body).not.toContain('Hello');
    const rows = await ctx.db.sql`select count(*)::int as n from webhook_events where type = 'phone.call.ended' and data->>'callId' = ${call.id}`;
    expect(rows[0]!.n).toBe(1);
  });

  it('document.ready for a clean upload, document.quarantined for an infected one', async () => {
    const writer = t.as('writer');
    const clean = await docs.upload(writer, { fields: formFields('case-clean'), file: { filename: 'Ottilie-contract.txt', data: Buffer.from('plain words') } });
    expect(clean.status, clean.text).toBe(201);
    const ready = await eventWhere((d) => d.payload?.type === 'document.ready' && d.payload.data.documentId === clean.json.id);
    expect(ready.payload!.data).toEqual({
      documentId: clean.json.id,
      kind: 'FORM_ATTACHMENT',
      capability: 'FORMS',
      processRef: 'case-clean',
      status: 'READY',
      scanStatus: 'CLEAN',
      link: `https://platform.example.com/api/documents/${clean.json.id}`,
    });
    const bad = await docs.upload(writer, { fields: formFields('case-bad'), file: { filename: 'Ottilie-virus.bin', data: Buffer.concat([Buffer.from('head '), CLAMD_TEST_MARKER]) } });
    expect(bad.json.status).toBe('QUARANTINED');
    const quarantined = await eventWhere((d) => d.payload?.type === 'document.quarantined' && d.payload.data.documentId === bad.json.id);
    expect(quarantined.payload!.data).toMatchObject({ status: 'QUARANTINED', scanStatus: 'INFECTED' });
    for (const d of receiver.received(PATH)) {
      expect(d.verifiedBy).toEqual([0]);
      expect(d.body).not.toContain('Ottilie');
    }
  });
});
