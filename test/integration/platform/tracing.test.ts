// One trace from an API write to the activities it caused: the request's W3C traceparent, the
// outbox row's stored context, the dispatcher's workflow start (Temporal's client interceptor) and
// the workflow and activity spans (Temporal's OpenTelemetry plugin), all on the real Temporal server.
import { OpenTelemetryWorkflowClientInterceptor, OpenTelemetryPlugin } from '@temporalio/interceptors-opentelemetry';
import { Client } from '@temporalio/client';
import { context, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../../workers/worker-activities';
import { getOutboxRow, workflowIdFor } from '../../../db/outbox';
import { startTracing } from '../../../integrations/tracing/tracing';
import { OutboxDispatcher, temporalStarter } from '../../../workers/dispatcher';
import { phoneCallStateQuery } from '../../../workflows/phone-call';
import { client, INTERNAL_KEY } from '../../support/app';
import { docApi, formFields, patterned, ResponseRecorder, seedDocTenant, testS3Client, uploadInit } from '../../support/documents';
import { provisionNumber, seedPhoneTenant, usePhoneApp } from '../../support/phone';
import { startTestWorker, type TestWorker } from '../../support/temporal';

// Started before the app is built (it mounts the request span middleware only with tracing on).
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'platform-test', exporter })!;
const s3 = testS3Client();

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | null | false>, timeoutMs = 120_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}

/** A caller's W3C trace context: the platform must continue this trace, not start its own. */
function callerTrace() {
  const traceId = randomBytes(16).toString('hex');
  return { traceId, traceparent: `00-${traceId}-${randomBytes(8).toString('hex')}-01` };
}

const spansOf = async (traceId: string) => {
  await tracing.flush();
  return exporter.getFinishedSpans().filter((s) => s.spanContext().traceId === traceId);
};
const names = (spans: ReadableSpan[]) => spans.map((s) => s.name);

describe('tracing from the HTTP request to the activity (real Temporal)', () => {
  // A scanner that refuses every connection: uploads stay PENDING and the durable scan retry runs.
  const ctx = usePhoneApp({ 'docstore.scan': 'clamav', 'docstore.clamav-host': '127.0.0.1', 'docstore.clamav-port': 1, deps: { s3 } });
  const api = client(ctx);
  let worker: TestWorker;
  let dispatcher: OutboxDispatcher;
  let traced: Client;

  beforeAll(async () => {
    const plugin = new OpenTelemetryPlugin({ resource: tracing.resource, spanProcessor: tracing.spanProcessor });
    worker = await startTestWorker(createActivities({ db: ctx.db.db, settings: ctx.settings, logger: ctx.deps.logger, s3 }), undefined, { plugins: [plugin] });
    // As production's runtime client: the interceptor carries the dispatcher's context into the start.
    traced = new Client({ connection: worker.client.connection, interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } });
    dispatcher = new OutboxDispatcher({
      database: ctx.db,
      logger: ctx.deps.logger,
      startWorkflow: temporalStarter(traced, worker.taskQueue),
      capabilities: ['PHONE', 'DOCUMENTS'],
      pollMs: 60_000,
      batchSize: 50,
      maxAttempts: 3,
      backoffMs: 100,
    });
  });
  afterAll(async () => {
    await worker?.stop();
  });

  it('a phone call placement: POST → outbox row → StartWorkflow → RunWorkflow → activities, one trace id; log lines carry it', async () => {
    const t = await seedPhoneTenant(ctx);
    const numberId = (await provisionNumber(ctx, t.writer, 'asst-inbound')).providerNumberId;
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: numberId });
    const caller = callerTrace();
    const placed = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550177' }, { traceparent: caller.traceparent });
    expect(placed.status, placed.text).toBe(201);
    const callId = placed.json.id as string;

    const row = await getOutboxRow(ctx.db.db, 'PHONE', t.id, callId);
    expect(row?.traceContext?.traceparent).toContain(caller.traceId);

    await dispatcher.dispatchOnce();
    const handle = traced.workflow.getHandle(workflowIdFor('PHONE', t.id, callId));
    await waitFor('the process to park', async () => (await handle.query(phoneCallStateQuery)).phase === 'waiting');
    await handle.signal('PhoneCallEnded', { callId, status: 'ENDED', endedReason: null });
    await handle.result();

    const spans = await waitFor('the workflow and activity spans', async () => {
      const s = await spansOf(caller.traceId);
      return names(s).includes('RunWorkflow:phoneCall') && names(s).includes('RunActivity:closePhoneCallProcess') ? s : undefined;
    });
    expect(names(spans)).toEqual(
      expect.arrayContaining([
        'POST /api/phone-calls',
        'StartWorkflow:phoneCall',
        'RunWorkflow:phoneCall',
        'StartActivity:openPhoneCallProcess',
        'RunActivity:openPhoneCallProcess',
        'RunActivity:closePhoneCallProcess',
      ]),
    );
    // The request span continues the caller's span; the start is its child.
    const request = spans.find((s) => s.name === 'POST /api/phone-calls')!;
    expect(request.parentSpanId).toBe(caller.traceparent.split('-')[2]);
    expect(request.attributes['http.route']).toBe('/api/phone-calls');
    expect(spans.find((s) => s.name === 'StartWorkflow:phoneCall')!.parentSpanId).toBe(request.spanContext().spanId);
    // The request's own log line carries the trace id (pino mixin).
    const requestLine = ctx.logs.lines.map((l) => JSON.parse(l)).find((l) => l.msg === 'request' && l.path === '/api/phone-calls' && l.traceId === caller.traceId);
    expect(requestLine).toBeDefined();
  });

  it('a document scan retry: the upload that left it PENDING starts documentScan in its trace; the failing scan activity is in it', async () => {
    const t = await seedDocTenant(ctx);
    const caller = callerTrace();
    const docs = docApi(() => ctx.app, new ResponseRecorder(), INTERNAL_KEY);
    const init = uploadInit(t.as('writer'), { fields: formFields('traced-scan'), file: { filename: 'x.bin', data: patterned(2000) } });
    const up = await docs.send('/api/documents', { ...init, headers: { ...(init.headers as Record<string, string>), traceparent: caller.traceparent } });
    expect(up.json).toMatchObject({ status: 'PENDING', scanStatus: 'ERROR' });
    const docId = up.json.id as string;
    const row = await getOutboxRow(ctx.db.db, 'DOCUMENTS', t.id, `scan-${docId}`);
    expect(row?.traceContext?.traceparent).toContain(caller.traceId);

    await dispatcher.dispatchOnce();
    const spans = await waitFor('a failed scan attempt in the trace', async () => {
      const s = await spansOf(caller.traceId);
      return names(s).includes('RunActivity:scanPendingDocument') ? s : undefined;
    });
    expect(names(spans)).toEqual(expect.arrayContaining(['POST /api/documents', 'StartWorkflow:documentScan', 'RunActivity:scanPendingDocument']));
    const attempt = spans.find((s) => s.name === 'RunActivity:scanPendingDocument')!;
    expect(attempt.status.code).toBe(2); // ERROR: clamd refused; Temporal retries it
    await traced.workflow.getHandle(row!.workflowId).terminate('test over');
  });

  it('without a traceparent the request starts a trace of its own, and code outside a request has no active span', async () => {
    expect(trace.getSpan(context.active())).toBeUndefined();
    const before = exporter.getFinishedSpans().length;
    expect((await api.get('/health/live', null)).status).toBe(200);
    await tracing.flush();
    const fresh = exporter.getFinishedSpans().slice(before).find((s) => s.name === 'GET /health/live');
    expect(fresh?.parentSpanId).toBeUndefined();
  });
});
