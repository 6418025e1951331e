import { ROOT_CONTEXT, SamplingDecision, SpanKind, trace, TraceFlags } from '@opentelemetry/api';
import { describe, expect, it } from 'vitest';
import { CHOSEN_ROOT, headSamplingFromEnv } from '../../../integrations/tracing/sampler';

// Its four 32-bit words XOR to 0xffffffff, which the SDK's ratio sampler keeps for no ratio below 1.
const TRACE_ID = 'ffffffff000000000000000000000000';
const decide = (env: NodeJS.ProcessEnv, context = ROOT_CONTEXT) =>
  headSamplingFromEnv(env).sampler.shouldSample(context, TRACE_ID, 'GET', SpanKind.SERVER, {}, []).decision;

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

  it('applies the configured sampler to a root the API did not choose, and samples one it chose', () => {
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.5' };
    expect(decide(env)).toBe(SamplingDecision.NOT_RECORD);
    expect(decide(env, ROOT_CONTEXT.setValue(CHOSEN_ROOT, true))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({ OTEL_TRACES_SAMPLER: 'always_off' }, ROOT_CONTEXT.setValue(CHOSEN_ROOT, true))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  });

  it("follows a caller's decision under parentbased samplers", () => {
    const parent = (flags: TraceFlags) => trace.setSpanContext(ROOT_CONTEXT, { traceId: TRACE_ID, spanId: 'ffffffffffffffff', traceFlags: flags, isRemote: true });
    const env = { OTEL_TRACES_SAMPLER: 'parentbased_always_off' };
    expect(decide(env, parent(TraceFlags.SAMPLED))).toBe(SamplingDecision.RECORD_AND_SAMPLED);
    expect(decide({}, parent(TraceFlags.NONE))).toBe(SamplingDecision.NOT_RECORD);
  });
});
