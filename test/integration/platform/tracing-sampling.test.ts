// Tracing when the sampler drops a request (here every root: parentbased_always_off). A root read
// it leaves out runs with no span at all; an unsampled write still runs inside its span, so the
// outbox row carries the "not sampled" decision to the workflow; a caller's sampled trace is
// continued, read or write.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { getOutboxRow } from '../../../db/outbox';
import { startTracing } from '../../../integrations/tracing/tracing';
import { client } from '../../support/app';
import { provisionNumber, seedPhoneTenant, usePhoneApp } from '../../support/phone';

// Read by the SDK when the provider is made: before startTracing, and before the app is built.
process.env.OTEL_TRACES_SAMPLER = 'parentbased_always_off';
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'platform-test', exporter })!;

const requestLine = (lines: string[], path: string, method: string) =>
  lines.map((l) => JSON.parse(l)).findLast((l) => l.msg === 'request' && l.path === path && l.method === method);

describe('tracing with a sampler that drops root requests', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);

  it('a read without trace context that the sampler leaves out runs with no span: nothing recorded, its log line carries its request id and no trace id', async () => {
    const t = await seedPhoneTenant(ctx);
    const before = exporter.getFinishedSpans().length;
    expect((await api.get('/api/phone-calls', t.reader)).status).toBe(200);
    await tracing.flush();
    expect(exporter.getFinishedSpans().slice(before)).toEqual([]);
    const line = requestLine(ctx.logs.lines, '/api/phone-calls', 'GET');
    expect(line?.requestId).toMatch(/^[0-9a-f-]{36}$/);
    expect(line).not.toHaveProperty('traceId');
    expect(line).not.toHaveProperty('spanId');
  });

  it('an unsampled write stores its trace context as not sampled, so the process it starts is not sampled either', async () => {
    const t = await seedPhoneTenant(ctx);
    const numberId = (await provisionNumber(ctx, t.writer, 'asst-inbound')).providerNumberId;
    await api.put('/api/phone-settings', t.writer, { defaultAssistantId: 'asst-1', defaultPhoneNumberId: numberId });
    const placed = await api.post('/api/phone-calls', t.writer, { customerNumber: '+14155550178' });
    expect(placed.status, placed.text).toBe(201);
    const row = await getOutboxRow(ctx.db.db, 'PHONE', t.id, placed.json.id as string);
    const [, traceId, , flags] = row!.traceContext!.traceparent!.split('-');
    expect(flags).toBe('00');
    expect(requestLine(ctx.logs.lines, '/api/phone-calls', 'POST')?.traceId).toBe(traceId);
  });

  it("a read whose caller sampled its trace is recorded as the caller's child", async () => {
    const t = await seedPhoneTenant(ctx);
    const traceId = randomBytes(16).toString('hex');
    const parentId = randomBytes(8).toString('hex');
    expect((await api.get('/api/phone-calls', t.reader, { traceparent: `00-${traceId}-${parentId}-01` })).status).toBe(200);
    await tracing.flush();
    const span = exporter.getFinishedSpans().find((s) => s.spanContext().traceId === traceId);
    expect(span?.name).toBe('GET /api/phone-calls');
    expect(span?.parentSpanId).toBe(parentId);
  });
});
