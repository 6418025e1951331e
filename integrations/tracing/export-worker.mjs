// The worker thread of threaded-exporter.ts (which says why it exists): the SDK's OTLP/HTTP
// exporter, fed ReadableSpans rebuilt from the plain records the main thread sends. Plain
// JavaScript so the thread starts without a TypeScript loader, under tsx, vitest or node alike.
import { parentPort, workerData } from 'node:worker_threads';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';

const exporter = new OTLPTraceExporter({ url: workerData.url });
const traceState = (serialized) => (serialized === undefined ? undefined : { serialize: () => serialized });

// The exporter groups spans by resource object and scope: the batch's own, shared by its spans.
const readableBatch = (batch) => {
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

parentPort.on('message', (m) => {
  const reply = (fields) => parentPort.postMessage({ id: m.id, ...fields });
  const settled = (p) => p.then(() => reply({}), (err) => reply({ error: String(err?.message ?? err) }));
  if (m.type === 'export') {
    exporter.export(readableBatch(JSON.parse(m.batch)), (result) => reply(result.code === 0 ? {} : { error: String(result.error?.message ?? 'export failed') }));
  } else if (m.type === 'flush') settled(exporter.forceFlush());
  else if (m.type === 'shutdown') settled(exporter.shutdown());
});
