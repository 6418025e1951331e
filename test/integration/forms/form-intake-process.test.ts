import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFormActivities } from '../../../activities/forms';
import { getOutboxRow, workflowIdFor } from '../../../db/outbox';
import type { OutboxDispatcher } from '../../../workers/dispatcher';
import { createWorkerIntegrations } from '../../../workers/worker-integrations';
import { client, useTestApp } from '../../support/app';
import { seedFormsTenant } from '../../support/forms';
import { EMBED_KEY, publishedForm } from '../../support/intake';
import { startTestWorker, testDispatcher, type TestWorker } from '../../support/temporal';

describe('formIntake process on the real Temporal server', () => {
  // The PDF step has its own test (intake-completion.test.ts); this worker has no S3.
  const ctx = useTestApp({ 'forms.embed-key': EMBED_KEY, 'forms.submission-pdf': false });
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;
  let t: Awaited<ReturnType<typeof seedFormsTenant>>;

  beforeAll(async () => {
    worker = await startTestWorker(createFormActivities(createWorkerIntegrations({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger })));
    dispatcher = testDispatcher(ctx, worker, ['FORMS']);
    t = await seedFormsTenant(ctx);
  });
  afterAll(async () => {
    await worker?.stop();
  });

  const submitAndRun = async (submissionHandling?: string) => {
    const { token } = await publishedForm(ctx, t.asOwner, submissionHandling ? { submissionHandling } : {});
    const r = await client(ctx).post(`/api/public/embed/${token}/submit`, null, { data: { email: 'ann@example.com' } });
    expect(r.status, r.text).toBe(201);
    await dispatcher.dispatchOnce();
    const result = await worker.client.workflow.getHandle(workflowIdFor('FORMS', t.id, r.json.id)).result();
    const view = (await client(ctx).get(`/api/form-instances/${r.json.id}`, t.asOwner)).json;
    return { id: r.json.id as string, result, view };
  };

  it('store: submit through the public route, one dispatch, the workflow completes, PROCESSED, outbox CLOSED', async () => {
    const { id, result, view } = await submitAndRun('store');
    expect(result).toMatchObject({ instanceId: id, outcome: 'stored' });
    expect(view).toMatchObject({
      state: 'PROCESSED',
      context: { processStartStatus: 'PROCESSED', processInstanceId: result.processInstanceId, businessKey: `SM-${id}` },
      submissionOutbox: { status: 'PUBLISHED', outboxState: 'CLOSED', retryCount: 0 },
    });
    expect(await getOutboxRow(ctx.db.db, 'FORMS', t.id, id)).toMatchObject({ state: 'CLOSED' });
  });

  it('an unknown submissionHandling is a recorded failure: SUBMITTED stays, processStartStatus FAILED, outbox CLOSED', async () => {
    const { result, view } = await submitAndRun('carrier-pigeon');
    expect(result.outcome).toBe('failed');
    expect(view).toMatchObject({ state: 'SUBMITTED', context: { processStartStatus: 'FAILED' }, submissionOutbox: { outboxState: 'CLOSED' } });
  });
});
