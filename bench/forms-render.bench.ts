/**
 * bench/forms-render: the submission PDF (POST /internal/render/form-pdf) on one API node.
 *
 * - latency: p50 and p95 of ROUNDS (env, default 15) sequential renders of a 24-field submission
 *   (print view → headless Chromium → A4 PDF → S3 → READY), after two warm-up renders (the first
 *   launches the node's browser; its time is reported as coldMs);
 * - flood: FLOOD (default 50) calls at once with the default render settings (one at a time, a
 *   queue of 8): how many are served (201) and refused (503 `render-queue-full` with
 *   Retry-After), that nothing else answers (no 500) and the node survives (a render after the
 *   flood succeeds), and the peak RSS of the server process and of its Chromium processes.
 *
 * The server runs in a child process (bench/support/render-server.ts) with Debian's chromium.
 * Real PostgreSQL (embedded unless DATABASE_URL) and S3 (embedded SeaweedFS unless S3_ENDPOINT).
 * Prints exactly one JSON line. Bounded: well under a minute.
 *
 * Run: npx tsx bench/forms-render.bench.ts
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { createDatabase } from '../db/client';
import type { FormField } from '../domain/forms/form-schema';
import { startBenchS3 } from './support/s3';
import { startBenchDatabase } from './support/servers';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const FLOOD = Number(process.env.FLOOD ?? 50);
const TENANT = 'bench-forms';
const KEY = 'bench-internal-key-0123456789';
const CHILD = fileURLToPath(new URL('./support/render-server.ts', import.meta.url));
const MIB = 1024 * 1024;

const log = (m: string) => process.stderr.write(`[forms-render] ${m}\n`);
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))]!;
const round = (x: number, d = 1) => Number(x.toFixed(d));

const fields: FormField[] = [];
const data: Record<string, unknown> = {};
for (let i = 0; i < 8; i++) {
  fields.push({ key: `text${i}`, type: 'text', label: `Question ${i}: your answer in a sentence` });
  data[`text${i}`] = `An answer of a reasonable length for question ${i}, with some <markup> & "quotes".`;
  fields.push({ key: `notes${i}`, type: 'textarea', label: `Notes ${i}` });
  data[`notes${i}`] = 'Line one of the notes.\nLine two, a little longer than the first one.\nLine three.';
  fields.push({ key: `pick${i}`, type: 'multiselect', label: `Pick ${i}`, options: [{ value: 'a', label: 'Alpha' }, { value: 'b', label: 'Beta' }, { value: 'c', label: 'Gamma' }] });
  data[`pick${i}`] = ['a', 'c'];
}
const body = (n: number) =>
  JSON.stringify({ tenantId: TENANT, processRef: `bench-${n}`, title: 'Bench intake', code: 'FRMBENCH', version: 1, schema: { title: 'Bench intake', fields }, data });

async function seed(url: string) {
  const { sql, close } = createDatabase(url, { max: 1 });
  await sql`insert into tenants (id, name, created_by) values (${TENANT}, 'Bench', 'bench')`;
  await sql`insert into capability_subscriptions (tenant_id, capability_code, status, updated_by) values (${TENANT}, 'FORMS', 'ACTIVE', 'bench')`;
  await close();
}

/** Resident memory (bytes) of a process and its descendants (the server and its Chromium). */
function treeRss(root: number): { server: number; chromium: number } {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
      parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      /* gone */
    }
  }
  const rss = (pid: number) => {
    try {
      return Number(/^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      return 0;
    }
  };
  let chromium = 0;
  const stack = [root];
  while (stack.length) {
    const p = stack.pop()!;
    for (const [child, pp] of parent) if (pp === p) {
      chromium += rss(child);
      stack.push(child);
    }
  }
  return { server: rss(root), chromium };
}

const [db, s3] = await Promise.all([startBenchDatabase(), startBenchS3()]);
let child: ChildProcess | undefined;
try {
  await seed(db.url);
  child = fork(CHILD, [], {
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      DATABASE_URL: db.url,
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: s3.region,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      S3_BUCKET: s3.bucket,
      LOG_LEVEL: 'silent',
      INTERNAL_KEY: KEY,
    },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    child!.once('message', (m: { port?: number }) => (m.port ? resolve(m.port) : reject(new Error('no port'))));
    child!.once('exit', (code) => reject(new Error(`server exited with ${code}`)));
  });
  const url = `http://127.0.0.1:${port}/internal/render/form-pdf`;
  let n = 0;
  const render = async () => {
    const t = performance.now();
    const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Internal-Key': KEY }, body: body(n++) });
    const text = await res.text();
    return { status: res.status, ms: performance.now() - t, retryAfter: res.headers.get('Retry-After'), text };
  };
  const must = async () => {
    const r = await render();
    if (r.status !== 201) throw new Error(`render answered ${r.status}: ${r.text}`);
    return r;
  };

  const cold = await must();
  await must();
  log(`cold ${Math.round(cold.ms)} ms; ${ROUNDS} sequential renders`);
  const times: number[] = [];
  let sizeBytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    const r = await must();
    times.push(r.ms);
    sizeBytes = (JSON.parse(r.text) as { sizeBytes: number }).sizeBytes;
  }

  log(`flood of ${FLOOD}`);
  const idle = treeRss(child.pid!);
  let peak = { ...idle };
  const sampler = setInterval(() => {
    const now = treeRss(child!.pid!);
    peak = { server: Math.max(peak.server, now.server), chromium: Math.max(peak.chromium, now.chromium) };
  }, 25);
  const t = performance.now();
  const flood = await Promise.all(Array.from({ length: FLOOD }, () => render()));
  const floodMs = performance.now() - t;
  clearInterval(sampler);
  const served = flood.filter((r) => r.status === 201).length;
  const refused = flood.filter((r) => r.status === 503 && r.text.includes('render-queue-full') && Number(r.retryAfter) >= 1).length;
  const other = flood.filter((r) => r.status !== 201 && !(r.status === 503 && r.text.includes('render-queue-full'))).map((r) => r.status);
  const after = await render();

  const result = {
    bench: 'forms-render',
    fields: fields.length,
    pdfBytes: sizeBytes,
    latency: { rounds: ROUNDS, coldMs: Math.round(cold.ms), p50Ms: Math.round(pct(times, 50)), p95Ms: Math.round(pct(times, 95)) },
    flood: {
      calls: FLOOD,
      served,
      refused503: refused,
      servedShare: round(served / FLOOD, 2),
      other,
      wallMs: Math.round(floodMs),
      survived: after.status === 201,
      idleRssMiB: { server: round(idle.server / MIB), chromium: round(idle.chromium / MIB) },
      peakRssMiB: { server: round(peak.server / MIB), chromium: round(peak.chromium / MIB) },
    },
    pass: other.length === 0 && refused + served === FLOOD && after.status === 201,
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
} finally {
  child?.disconnect();
  await new Promise((r) => setTimeout(r, 500));
  child?.kill();
  await Promise.all([db.stop(), s3.stop()]);
}
