// Tracing at a sampling ratio (parentbased_traceidratio, 0.5): the API draws a read without trace
// context into the sample or out of it before any span exists, and a read drawn in is recorded
// without the ratio being applied a second time by the SDK's sampler.
import { InMemorySpanExporter } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';
import { startTracing } from '../../../integrations/tracing/tracing';
import { client } from '../../support/app';
import { seedPhoneTenant, usePhoneApp } from '../../support/phone';

// Read when tracing starts: before startTracing, and before the app is built.
process.env.OTEL_TRACES_SAMPLER = 'parentbased_traceidratio';
process.env.OTEL_TRACES_SAMPLER_ARG = '0.5';
const exporter = new InMemorySpanExporter();
const tracing = startTracing({ serviceName: 'platform-test', exporter })!;

describe('tracing at a sampling ratio of 0.5', () => {
  const ctx = usePhoneApp();
  const api = client(ctx);

  it('reads the ratio from the standard variables', () => {
    expect(tracing.rootRatio).toBe(0.5);
  });

  it('records about half of 400 root reads, each drawn once (applied twice, a quarter would be)', async () => {
    const t = await seedPhoneTenant(ctx);
    const before = exporter.getFinishedSpans().length;
    for (let i = 0; i < 400; i++) expect((await api.get('/api/phone-calls', t.reader)).status).toBe(200);
    await tracing.flush();
    const recorded = exporter.getFinishedSpans().slice(before).filter((s) => s.name === 'GET /api/phone-calls');
    // Binomial(400, 0.5): mean 200, sd 10; 150…250 is five sd either way. Twice applied: mean 100, sd 8.7.
    expect(recorded.length).toBeGreaterThanOrEqual(150);
    expect(recorded.length).toBeLessThanOrEqual(250);
    expect(recorded.every((s) => s.parentSpanId === undefined)).toBe(true);
    // The reads drawn in carry their trace id in their log lines; the others carry none.
    const lines = ctx.logs.lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request' && l.path === '/api/phone-calls');
    const traced = new Set(recorded.map((s) => s.spanContext().traceId));
    expect(lines.filter((l) => l.traceId).every((l) => traced.has(l.traceId))).toBe(true);
    expect(lines.filter((l) => l.traceId).length).toBe(recorded.length);
  });
});
