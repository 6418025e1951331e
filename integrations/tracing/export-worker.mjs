// The worker thread of threaded-exporter.ts (which says why it exists): the SDK's OTLP/HTTP
// exporter, fed ReadableSpans rebuilt from the plain records the main thread sends. Plain
// JavaScript so the thread starts without a TypeScript loader, under tsx, vitest or node alike.
import { parentPort, workerData } from 'node:worker_threads';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { readableBatch, rootReadSpans } from './span-records.mjs';

const exporter = new OTLPTraceExporter({ url: workerData.url });

parentPort.on('message', (m) => {
  const reply = (fields) => parentPort.postMessage({ id: m.id, ...fields });
  const settled = (p) => p.then(() => reply({}), (err) => reply({ error: String(err?.message ?? err) }));
  const exported = (result) => reply(result.code === 0 ? {} : { error: String(result.error?.message ?? 'export failed') });
  if (m.type === 'export') exporter.export(readableBatch(JSON.parse(m.batch)), exported);
  else if (m.type === 'export-root-reads') exporter.export(rootReadSpans(JSON.parse(m.batch)), exported);
  else if (m.type === 'flush') settled(exporter.forceFlush());
  else if (m.type === 'shutdown') settled(exporter.shutdown());
});
