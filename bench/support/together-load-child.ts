// Child process of load.ts' runLoadsTogether: one autocannon per target, all started in the same
// tick and running at once; their results as one JSON array line, in the targets' order.
import autocannon from 'autocannon';
import type { TogetherTarget } from './load';

const o = JSON.parse(process.argv[2] ?? '{}') as { targets: TogetherTarget[]; seconds: number; connections: number };
const results = await Promise.all(o.targets.map((t) => autocannon({ url: t.url, connections: o.connections, duration: o.seconds, headers: t.headers })));
process.stdout.write(`${JSON.stringify(results)}\n`);
