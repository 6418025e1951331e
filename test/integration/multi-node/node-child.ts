// One node of the platform in its own process, built by the production composition: `api`
// (startApiNode: its own access cache, LISTEN connection and heartbeat), `worker` (the Temporal
// worker, no dispatcher) or `dispatcher` (the outbox dispatcher and correlator). Settings come
// from the environment like any node. Prints one JSON line once ready; stops when stdin closes.
import { startApiNode } from '../../../workers/api-node';
import { loadSettings } from '../../../workers/config';
import { createLogger } from '../../../workers/logger';
import { connectRuntime, endpointsFromSettings } from '../../../workers/runtime';
import { startOutboxDelivery, startWorkerProcess } from '../../../workers/worker-process';

const role = process.argv[2] as 'api' | 'worker' | 'dispatcher';
const settings = loadSettings();
const logger = createLogger(settings, role, process.stderr as never);
const endpoints = endpointsFromSettings(settings);
const runtime = await connectRuntime(settings, endpoints, logger);

let stop: () => Promise<void>;
let ready: Record<string, unknown> = {};
if (role === 'api') {
  const node = await startApiNode(settings, runtime, logger);
  ready = { port: node.port, metrics: node.metrics?.url };
  stop = node.stop;
} else if (role === 'worker') {
  const worker = await startWorkerProcess(settings, runtime, endpoints.temporalAddress, logger);
  stop = worker.stop;
} else {
  const delivery = await startOutboxDelivery(settings, runtime.database, runtime, logger);
  stop = delivery.stop;
}
process.stdout.write(`${JSON.stringify({ ready: role, pid: process.pid, ...ready })}\n`);
process.stdin.resume();
process.stdin.on('end', async () => {
  await stop();
  await runtime.close();
  process.exit(0);
});
