import { ROOT_CONTEXT, SamplingDecision, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { headSamplingFromEnv } from '../../../integrations/tracing/sampler';

// Its four 32-bit words XOR to 0xffffffff, which the SDK's ratio sampler keeps for no ratio below 1.
const TRACE_ID = 'ffffffff000000000000000000000000';
// Its words XOR to 1, which the ratio sampler keeps for any ratio above 0.
const LOW_TRACE_ID = '00000000000000000000000000000001';
const decide = (env: NodeJS.ProcessEnv, context = ROOT_CONTEXT, traceId = TRACE_ID) =>
  headSamplingFromEnv(env).sampler.shouldSample(context, traceId, 'POST', SpanKind.SERVER, {}, []).decision;

describe('head sampling from OTEL_TRACES_SAMPLER', () => {
  it.each([
    [{}, 1],
    [{ OTEL_TRACES_SAMPLER: 'always_on' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'always_off' }, 0],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_always_off' }, 0],
    [{ OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.25' }, 0.25],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.01' }, 0.01],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: 'half' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '1.5' }, 1],
    [{ OTEL_TRACES_SAMPLER: 'jaeger_remote' }, 1],
  ])('%o gives a root ratio of %d, as the SDK reads it', (env, ratio) => {
    expect(headSamplingFromEnv(env).rootRatio).toBe(ratio);
  });

  it('applies the configured ratio to a root span (a root write: the API draws root reads itself)', () => {
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' };
    expect(decide(env)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(env, ROOT_CONTEXT, LOW_TRACE_ID)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it("follows a caller's decision under parentbased samplers", () => {
    const parent = (flags: TraceFlags) => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: 'ffffffffffffffff', traceFlags: flags, isRemote: true });
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_always_off' };
    expect(decide(env, parent(TraceFlags.SAMPLED))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({}, parent(TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
  });
});
