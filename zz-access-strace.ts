import { execFileSync, spawn } from 'node:child_process';
import { startLineChild } from './bench/support/children';
import { READER_HEADERS, seedReaderThroughApi } from './bench/support/seed';
import { startBenchDatabase } from './bench/support/servers';
import { runLoad } from './bench/support/load';
const db = await startBenchDatabase();
const node = await startLineChild<{ port: number; metricsPort: number }>('./access-server.ts', ['metrics'], { BENCH_DATABASE_URL: db.url });
const base = `http://127.0.0.1:${node.ready.port}`;
await seedReaderThroughApi(base);
for (const [name, path, headers] of [['bare', '/bench/bare', {}], ['guarded', '/api/my-capabilities', READER_HEADERS]] as const) {
  await runLoad({ url: `${base}${path}`, seconds: 2, connections: 32, headers, serverPid: node.proc.pid });
  const st = spawn('strace', ['-c', '-f', '-p', String(node.proc.pid), '-o', `/tmp/strace-${name}.txt`]);
  await new Promise((r) => setTimeout(r, 1000));
  const res = await runLoad({ url: `${base}${path}`, seconds: 3, connections: 32, headers, serverPid: node.proc.pid });
  st.kill('SIGINT');
  await new Promise((r) => st.on('exit', r));
  console.log(name, 'requests', Math.round(res.requestsPerSec * 3));
}
process.exit(0);
