// Scanning at finalize against a REAL clamd (sigtool-generated test signature), reached through
// a relay the test can cut: detection → QUARANTINED, clean → READY, and a scanner error or
// time-out keeps the document PENDING until the durable documentScan workflow (outbox →
// dispatcher → real Temporal worker) finishes it once clamd answers again.
import { GetObjectRetentionCommand } from '@aws-sdk/client-s3';
import { mkdtemp, rm } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../workers/worker-activities';
import { getOutboxRow } from '../../../db/outbox';
import { OutboxDispatcher, temporalStarter } from '../../../workers/dispatcher';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { CLAMD_TEST_MARKER, CLAMD_TEST_SIGNATURE, startClamd, type RunningClamd } from '../../support/clamd';
import { docApi, documentRow, formFields, patterned, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { expectProblem } from '../../support/fixtures';
import { startTestWorker, type TestWorker } from '../../support/temporal';

const CAP = 256 * 1024;
const s3 = testS3Client();

/** A TCP relay to clamd that the test switches between forwarding, refusing and hanging. */
function clamdRelay() {
  let target = { host: '127.0.0.1', port: 0 };
  let mode: 'up' | 'refuse' | 'hang' = 'up';
  const open = new Set<net.Socket>();
  const server = net.createServer((client) => {
    open.add(client);
    client.on('close', () => open.delete(client));
    client.on('error', () => undefined);
    if (mode === 'refuse') return void client.destroy();
    if (mode === 'hang') return void client.resume();
    const upstream = net.connect(target.port, target.host);
    upstream.on('error', () => client.destroy());
    client.on('close', () => upstream.destroy());
    client.pipe(upstream).pipe(client);
  });
  return {
    async listen(to: { host: string; port: number }) {
      target = to;
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return (server.address() as net.AddressInfo).port;
    },
    set(m: typeof mode) {
      mode = m;
    },
    async close() {
      for (const s of open) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

const relay = clamdRelay();
let relayPort = 0;
let clamd: RunningClamd;
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'docs-clamd-'));
  clamd = await startClamd({ dir, maxBytes: CAP });
  relayPort = await relay.listen(clamd);
});

afterAll(async () => {
  await relay.close();
  await clamd?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const waitFor = async <T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
};

describe('scanning at finalize (docstore.scan=clamav, real clamd)', () => {
  // The port is known only after beforeAll; settings are read per request, so patch them there.
  const ctx = useTestApp({
    'docstore.max-bytes': CAP,
    'docstore.scan': 'clamav',
    'docstore.clamav-timeout-ms': 1500,
    'docstore.scan-retry-initial-ms': 200,
    'docstore.scan-retry-max-ms': 800,
    deps: { s3 },
  });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;

  beforeAll(async () => {
    ctx.settings['docstore.clamav-port'] = relayPort;
    // Rebuild the app so its scanner dials the relay.
    const { createApp } = await import('../../../api/app');
    ctx.app = createApp(ctx.deps);
    t = await seedDocTenant(ctx);
    worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger: pino({ level: 'silent' }), s3 }));
    dispatcher = new OutboxDispatcher({
      database: ctx.db,
      logger: pino({ level: 'silent' }),
      startWorkflow: temporalStarter(worker.client, worker.taskQueue),
      capabilities: ['DOCUMENTS'],
      pollMs: 200,
      batchSize: 10,
      maxAttempts: 5,
      backoffMs: 100,
    });
    await dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher?.stop();
    await worker?.stop();
  });

  const upload = (processRef: string, data: Buffer) =>
    api.upload(t.as('writer'), { fields: formFields(processRef), file: { filename: 'scan.bin', data } });
  const withMarkerAtEnd = (size: number) => {
    const b = patterned(size, 9);
    CLAMD_TEST_MARKER.copy(b, size - CLAMD_TEST_MARKER.length);
    return b;
  };
  const retentionMode = async (id: string) => {
    const row = (await documentRow(ctx, id))!;
    try {
      const r = await s3.send(new GetObjectRetentionCommand({ Bucket: ctx.settings['s3.bucket'], Key: `${t.id}/${row.storageKey}`, VersionId: row.storageVersionId! }));
      return r.Retention?.Mode ?? null;
    } catch {
      return null;
    }
  };

  it('a clean file becomes READY (scanStatus CLEAN) and is retained after the scan', async () => {
    const res = await upload('scan-clean', patterned(10_000));
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ status: 'READY', scanStatus: 'CLEAN', retentionMode: 'GOVERNANCE' });
    expect(await retentionMode(res.json.id)).toBe('GOVERNANCE');
  });

  it('the marker file is detected: QUARANTINED, no retention on its version, download 423', async () => {
    const res = await upload('scan-infected', Buffer.concat([Buffer.from('head '), CLAMD_TEST_MARKER, Buffer.from(' tail')]));
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ status: 'QUARANTINED', scanStatus: 'INFECTED', retentionMode: null, retainUntil: null });
    expect((await documentRow(ctx, res.json.id))!.scanSignature).toMatch(new RegExp(`^${CLAMD_TEST_SIGNATURE}`));
    expect(await retentionMode(res.json.id)).toBeNull();
    expectProblem(await api.get(`/api/documents/${res.json.id}/content`, t.as('writer')), 423, 'document-quarantined');
  });

  it('a file at the cap is scanned in full: the marker in its last bytes is detected, a clean one passes', async () => {
    expect((await upload('scan-cap-bad', withMarkerAtEnd(CAP))).json).toMatchObject({ sizeBytes: CAP, status: 'QUARANTINED' });
    expect((await upload('scan-cap-ok', patterned(CAP, 4))).json).toMatchObject({ sizeBytes: CAP, status: 'READY', scanStatus: 'CLEAN' });
  });

  it('a scanner outage keeps the document PENDING (never READY); the durable retry finishes it when clamd is back', async () => {
    relay.set('refuse');
    const res = await upload('scan-outage', patterned(20_000, 2));
    expect(res.status, res.text).toBe(201);
    expect(res.json).toMatchObject({ status: 'PENDING', scanStatus: 'ERROR', retentionMode: null });
    const id = res.json.id as string;
    expectProblem(await api.get(`/api/documents/${id}/content`, t.as('writer')), 409, 'document-not-ready');
    expect(await retentionMode(id)).toBeNull();
    // The outbox started documentScan; its attempts fail while clamd is unreachable.
    await waitFor('failed retries', async () => ((await documentRow(ctx, id))!.scanAttempts >= 3 ? true : undefined));
    expect((await documentRow(ctx, id))!.status).toBe('PENDING');
    relay.set('up');
    const row = await waitFor('READY', async () => {
      const r = (await documentRow(ctx, id))!;
      return r.status === 'PENDING' ? undefined : r;
    });
    expect(row).toMatchObject({ status: 'READY', scanStatus: 'CLEAN', retentionMode: 'GOVERNANCE' });
    expect(await retentionMode(id)).toBe('GOVERNANCE');
    const outbox = await waitFor('outbox CLOSED', async () => {
      const o = await getOutboxRow(ctx.db.db, 'DOCUMENTS', t.id, `scan-${id}`);
      return o?.state === 'CLOSED' ? o : undefined;
    });
    const handle = worker.client.workflow.getHandle(outbox.workflowId);
    expect(await handle.result()).toEqual({ docId: id, status: 'READY', settledHere: true });
    // Every attempt had a heartbeat timeout: one on a worker that died is run again after 20 s,
    // not after the 10-minute start-to-close timeout (the activity heartbeats while it scans).
    const { events } = await handle.fetchHistory();
    const scheduled = (events ?? []).flatMap((e) => (e.activityTaskScheduledEventAttributes ? [e.activityTaskScheduledEventAttributes] : []));
    expect(scheduled.map((a) => [a.activityType?.name, String(a.heartbeatTimeout?.seconds)])).toContainEqual(['scanPendingDocument', '20']);
    expect((await api.get(`/api/documents/${id}/content`, t.as('writer'))).status).toBe(200);
  });

  it('a scanner time-out keeps an infected file PENDING; the retry later quarantines it', async () => {
    relay.set('hang');
    const res = await upload('scan-timeout', withMarkerAtEnd(30_000));
    expect(res.json).toMatchObject({ status: 'PENDING', scanStatus: 'ERROR' });
    relay.set('up');
    const row = await waitFor('settled', async () => {
      const r = (await documentRow(ctx, res.json.id))!;
      return r.status === 'PENDING' ? undefined : r;
    });
    expect(row).toMatchObject({ status: 'QUARANTINED', scanStatus: 'INFECTED', retentionMode: null });
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
