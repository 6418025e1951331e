// Finalize of a task-scoped document signals the workflow owning its processRef with
// documentAttachedSignal, through an outbox row written with the READY state: a real worker runs
// a listener workflow, a real dispatcher delivers.
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueStart, workflowIdFor } from '../../../db/outbox';
import { OutboxDispatcher, temporalSignaller, temporalStarter } from '../../../workers/dispatcher';
import pino from 'pino';
import type { DocumentAttached } from '../../../domain/documents/signals';
import { INTERNAL_KEY, useTestApp } from '../../support/app';
import { docApi, formFields, ResponseRecorder, seedDocTenant, testS3Client } from '../../support/documents';
import { uniqueId } from '../../support/fixtures';
import { AttachmentListenerProcess } from '../../support/processes';
import { servers } from '../../support/servers';

const LISTENER = fileURLToPath(new URL('../../support/workflows/attachment-listener.ts', import.meta.url));
const s3 = testS3Client();
const temporal = new Client({ connection: Connection.lazy({ address: servers().temporalAddress }) });

describe('documentAttachedSignal on finalize of a task-scoped document', () => {
  const ctx = useTestApp({ deps: { s3 } });
  const rec = new ResponseRecorder();
  const api = docApi(() => ctx.app, rec, INTERNAL_KEY);
  const taskQueue = `tq-attach-${randomBytes(4).toString('hex')}`;
  let t: Awaited<ReturnType<typeof seedDocTenant>>;
  let worker: Worker;
  let running: Promise<void>;
  let native: NativeConnection;
  let dispatcher: OutboxDispatcher;

  beforeAll(async () => {
    t = await seedDocTenant(ctx);
    native = await NativeConnection.connect({ address: servers().temporalAddress });
    worker = await Worker.create({ connection: native, taskQueue, workflowsPath: LISTENER });
    running = worker.run();
    dispatcher = new OutboxDispatcher({
      database: ctx.db,
      logger: pino({ level: 'silent' }),
      startWorkflow: temporalStarter(temporal, taskQueue),
      signals: temporalSignaller(temporal, taskQueue),
      capabilities: ['DOCUMENTS', 'FORMS'],
      pollMs: 200,
      batchSize: 50,
      maxAttempts: 3,
      backoffMs: 100,
    });
    await dispatcher.start();
  });
  afterAll(async () => {
    await dispatcher?.stop();
    worker?.shutdown();
    await running;
    await native?.close();
    await temporal.connection.close();
  });

  const listen = (workflowId: string, waitMs: number) =>
    temporal.workflow.start('attachmentListener', { taskQueue, workflowId, args: [waitMs] });
  const upload = (processRef: string, extra: Record<string, string> = {}) =>
    api.upload(t.as('writer'), { fields: formFields(processRef, extra), file: { filename: 'att.pdf', data: Buffer.from('att') } });

  it('signals the workflow recorded by process-started with the document (docId, taskId, processRef, size, hash)', async () => {
    const processRef = uniqueId('sig-case');
    const workflowId = `listener-${processRef}`;
    const handle = await listen(workflowId, 20_000);
    const started = await api.post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: handle.firstExecutionRunId, workflowId });
    expect(started.status, started.text).toBe(200);
    const res = await upload(processRef, { taskId: 'task-7' });
    expect(res.status, res.text).toBe(201);
    const got: DocumentAttached[] = await handle.result();
    expect(got).toEqual([
      expect.objectContaining({ docId: res.json.id, tenantId: t.id, processRef, taskId: 'task-7', capability: 'FORMS', sizeBytes: 3, sha256: res.json.sha256 }),
    ]);
  });

  it('finds the owner through the outbox when the platform started the process (business key = processRef)', async () => {
    const processRef = uniqueId('sig-outbox');
    await ctx.db.db.transaction((tx) => enqueueStart(tx, AttachmentListenerProcess, { tenantId: t.id, processRef, waitMs: 20_000 }));
    const handle = temporal.workflow.getHandle(workflowIdFor('FORMS', t.id, processRef));
    // The running dispatcher starts it; its result is asked for once it exists.
    for (let i = 0; !(await handle.describe().then(() => true, () => false)); i++) {
      if (i > 200) throw new Error('the outbox start never happened');
      await new Promise((r) => setTimeout(r, 50));
    }
    const res = await upload(processRef, { taskId: 'task-8' });
    expect((await handle.result()).map((d: DocumentAttached) => d.docId)).toEqual([res.json.id]);
  });

  it('sends nothing for a case-level document (no taskId)', async () => {
    const processRef = uniqueId('sig-case-level');
    const workflowId = `listener-${processRef}`;
    const handle = await listen(workflowId, 1500);
    await api.post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: 'run-x', workflowId });
    expect((await upload(processRef)).status).toBe(201);
    expect(await handle.result()).toEqual([]);
  });

  it('is best effort: an owner that is not running (or unknown) never fails the upload', async () => {
    const processRef = uniqueId('sig-gone');
    await api.post('/api/documents/process-started', t.as('writer'), { processRef, processInstanceId: 'run-y', workflowId: 'no-such-workflow' });
    const res = await upload(processRef, { taskId: 'task-9' });
    expect(res.status, res.text).toBe(201);
    expect(res.json.status).toBe('READY');
    expect((await upload(uniqueId('sig-unknown'), { taskId: 'task-10' })).status).toBe(201);
  });

  it('storage-key leak check: no response of this file carried a storage key', async () => {
    await rec.expectNoStorageKeys(ctx);
  });
});
