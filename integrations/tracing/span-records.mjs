// ReadableSpans rebuilt from the plain records the main thread keeps or sends (threaded-exporter.ts,
// root-reads.ts): what the SDK's exporters read of a span, nothing else. Plain JavaScript because
// the export thread (export-worker.mjs) loads it without a TypeScript loader; the main thread uses
// rootReadSpans itself when its exporter is not the threaded one (tests' in-memory exporter).

import { addHrTimes, hrTimeDuration, millisToHrTime } from '@opentelemetry/core';

const traceState = (serialized) => (serialized === undefined ? undefined : { serialize: () => serialized });

// The exporter groups spans by resource object and scope: the batch's own, shared by its spans.
export const readableBatch = (batch) => {
  const resources = batch.resources.map((attributes) => ({ attributes, droppedAttributesCount: 0 }));
  return batch.spans.map((s) => readable(s, resources[s.resource], batch.scopes[s.scope]));
};

const readable = (s, resource, scope) => {
  const context = { traceId: s.traceId, spanId: s.spanId, traceFlags: s.traceFlags, traceState: traceState(s.traceState) };
  return {
    ...s,
    spanContext: () => context,
    links: s.links.map((l) => ({
      context: { traceId: l.traceId, spanId: l.spanId, traceFlags: l.traceFlags, traceState: traceState(l.traceState) },
      attributes: l.attributes,
      droppedAttributesCount: l.droppedAttributesCount,
    })),
    resource,
    instrumentationLibrary: scope,
    ended: true,
  };
};

/** Fields a root read keeps per read in RootReadBatch.records, in this order. */
export const ROOT_READ_FIELDS = 7;

const SERVER = 1;
const UNSET = 0;
const ERROR = 2;
const SAMPLED = 1;

// As the SDK times its own spans: the origin and the monotonic reading taken apart separately, then added.
const hrTime = (originMs, ms) => addHrTimes(millisToHrTime(originMs), millisToHrTime(ms));

/** The SERVER spans of a batch of root reads (root-reads.ts says what a root read is). */
export const rootReadSpans = (batch) => {
  const resource = { attributes: batch.resource, droppedAttributesCount: 0 };
  const spans = [];
  const r = batch.records;
  for (let i = 0; i + ROOT_READ_FIELDS <= r.length; i += ROOT_READ_FIELDS) {
    const [traceId, spanId, start, end, method, route, status] = r.slice(i, i + ROOT_READ_FIELDS);
    const context = { traceId, spanId, traceFlags: SAMPLED };
    const startTime = hrTime(batch.origin, start);
    const endTime = hrTime(batch.origin, end);
    spans.push({
      name: `${method} ${route}`,
      kind: SERVER,
      spanContext: () => context,
      parentSpanId: undefined,
      startTime,
      endTime,
      duration: hrTimeDuration(startTime, endTime),
      status: { code: status >= 500 ? ERROR : UNSET },
      attributes: { 'http.request.method': method, 'http.route': route, 'http.response.status_code': status },
      links: [],
      events: [],
      resource,
      instrumentationLibrary: batch.scope,
      ended: true,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
    });
  }
  return spans;
};
