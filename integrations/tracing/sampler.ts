import { diag } from '@opentelemetry/api';
import { AlwaysOffSampler, AlwaysOnSampler, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';

/** The head sampling of the process: the sampler the provider uses, and how likely a root span is recorded. */
export interface HeadSampling {
  readonly sampler: Sampler;
  /** The probability that a span without a parent is sampled (0 … 1). */
  readonly rootRatio: number;
}

function ratioFrom(arg: string | undefined): number {
  const ratio = arg === undefined || arg.trim() === '' ? NaN : Number(arg);
  if (ratio >= 0 && ratio <= 1) return ratio;
  diag.error(`OTEL_TRACES_SAMPLER_ARG=${arg ?? ''} is not a ratio in [0, 1]; using 1`);
  return 1;
}

/**
 * The standard OTEL_TRACES_SAMPLER / OTEL_TRACES_SAMPLER_ARG, read as the SDK reads them (default
 * parentbased_always_on; a blank, unparsable or out-of-range ratio is 1; an unknown sampler is
 * always_on). Built here rather than left to the SDK because the request layer needs the root
 * ratio itself: it draws a root read into the sample or out of it before anything is recorded, so a
 * read nobody records costs one random number, and records a read drawn in without an SDK span
 * (root-reads.ts; bench/access-observability.bench.ts).
 */
export function headSamplingFromEnv(env: NodeJS.ProcessEnv = process.env): HeadSampling {
  return configuredSampler(env.OTEL_TRACES_SAMPLER?.trim() || 'parentbased_always_on', env.OTEL_TRACES_SAMPLER_ARG);
}

function configuredSampler(name: string, arg: string | undefined): HeadSampling {
  switch (name) {
    case 'always_on':
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
    case 'always_off':
      return { sampler: new AlwaysOffSampler(), rootRatio: 0 };
    case 'traceidratio': {
      const r = ratioFrom(arg);
      return { sampler: new TraceIdRatioBasedSampler(r), rootRatio: r };
    }
    case 'parentbased_always_on':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOnSampler() }), rootRatio: 1 };
    case 'parentbased_always_off':
      return { sampler: new ParentBasedSampler({ root: new AlwaysOffSampler() }), rootRatio: 0 };
    case 'parentbased_traceidratio': {
      const r = ratioFrom(arg);
      return { sampler: new ParentBasedSampler({ root: new TraceIdRatioBasedSampler(r) }), rootRatio: r };
    }
    default:
      diag.error(`OTEL_TRACES_SAMPLER=${name} is not supported; using always_on`);
      return { sampler: new AlwaysOnSampler(), rootRatio: 1 };
  }
}
