/**
 * bench/forms-render: the submission PDF (POST /internal/render/form-pdf) on one API node.
 *
 * - latency: ROUNDS (env, default 15) sequential renders of a 24-field submission (print view ->
 *   headless Chromium -> A4 PDF -> S3 -> READY) after two warm-up renders (the first launches the
 *   node's browser; its time is reported as coldMs), alternating with the baseline: the same print
 *   view, written once to a static file, printed to the same A4 PDF by a Chromium of this process
 *   (a page per print, no context, no network rules, no storage);
 * - flood: FLOOD (default 50) calls at once with the default render settings (one at a time, a
 *   queue of 8): how many are served (201) and refused (503 `render-queue-full` with
 *   Retry-After), that nothing else answers (no 500) and the node survives (a render after the
 *   flood succeeds), and the peak RSS of the server process and of its Chromium processes.
 *
 * Goals: render p50 at most 3 x the static print's p50; 0 answers other than 201 or 503
 * render-queue-full; the node answers after the flood.
 *
 * The server runs in a child process (bench/support/render-server.ts) with Debian's chromium.
 * Real PostgreSQL (embedded unless DATABASE_URL) and S3 (embedded SeaweedFS unless S3_ENDPOINT).
 * Prints exactly one JSON line. Bounded: about a minute.
 *
 * Run: npm run bench -- forms-render
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { readFileSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium, type Browser } from 'playwright-core';
import type { FormField } from '../domain/forms/form-schema';
import { CHROMIUM_ARGS } from '../integrations/chromium/printer';
import { submissionPrintHtml } from '../services/forms/submission-print';
import { loadSettings } from '../workers/config';
import { forkPortChild, type PortChild } from './support/children';
import { atMost, exactly, report } from './support/goals';
import { roundOrder } from './support/order';
import { seedTenant } from './support/seed';
import { startBenchS3 } from './support/s3';
import { startBenchDatabase } from './support/servers';
import { percentile as pct, round, timed } from './support/stats';

const ROUNDS = Number(process.env.ROUNDS ?? 15);
const FLOOD = Number(process.env.FLOOD ?? 50);
const TENANT = 'bench-forms';
const KEY = 'bench-internal-key-0123456789';
const GOAL_RATIO = 3;
const MIB = 1024 * 1024;

const log = (m: string) => process.stderr.write(`[forms-render] ${m}\n`);

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

/** The same print view from a static file, printed by a Chromium of the bench's own (the baseline). */
async function staticPrinter() {
  const dir = await mkdtemp(join(tmpdir(), 'bench-forms-render-'));
  const file = join(dir, 'submission.html');
  await writeFile(file, submissionPrintHtml({ title: 'Bench intake', code: 'FRMBENCH', version: 1, submittedAt: new Date(), schema: { title: 'Bench intake', fields }, data }));
  const browser: Browser = await chromium.launch({ executablePath: loadSettings()['render.chromium-path'], args: CHROMIUM_ARGS, headless: true });
  return {
    async print() {
      const page = await browser.newPage();
      await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
      await page.waitForSelector('html[data-ready="1"]', { state: 'attached' });
      const pdf = await page.pdf({ format: 'A4', printBackground: true, margin: { top: '18mm', right: '16mm', bottom: '18mm', left: '16mm' } });
      await page.close();
      if (pdf.length === 0) throw new Error('empty static print');
    },
    async close() {
      await browser.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const [db, s3] = await Promise.all([startBenchDatabase(), startBenchS3()]);
let child: PortChild | undefined;
let baseline: Awaited<ReturnType<typeof staticPrinter>> | undefined;
try {
  await seedTenant(db.url, { tenant: TENANT, capabilities: ['FORMS'] });
  child = await forkPortChild('./render-server.ts', {
    DATABASE_URL: db.url,
    S3_ENDPOINT: s3.endpoint,
    S3_REGION: s3.region,
    S3_ACCESS_KEY_ID: s3.accessKeyId,
    S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
    S3_BUCKET: s3.bucket,
    LOG_LEVEL: 'silent',
    INTERNAL_KEY: KEY,
  });
  const url = `http://127.0.0.1:${child.port}/internal/render/form-pdf`;
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
  baseline = await staticPrinter();
  await baseline.print();
  await baseline.print();
  log(`cold ${Math.round(cold.ms)} ms; ${ROUNDS} sequential renders, alternating with static prints`);
  const times: number[] = [];
  const staticTimes: number[] = [];
  let sizeBytes = 0;
  for (let i = 0; i < ROUNDS; i++) {
    for (const side of roundOrder(['render', 'static'] as const, i)) {
      if (side === 'static') staticTimes.push(await timed(() => baseline!.print()));
      else {
        const r = await must();
        times.push(r.ms);
        sizeBytes = (JSON.parse(r.text) as { sizeBytes: number }).sizeBytes;
      }
    }
  }
  await baseline.close();
  baseline = undefined;

  log(`flood of ${FLOOD}`);
  const idle = treeRss(child.proc.pid!);
  let peak = { ...idle };
  const sampler = setInterval(() => {
    const now = treeRss(child!.proc.pid!);
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

  const ratio = round(pct(times, 50) / pct(staticTimes, 50), 2);
  report(
    'forms-render',
    {
      fields: fields.length,
      pdfBytes: sizeBytes,
      latency: { rounds: ROUNDS, coldMs: Math.round(cold.ms), p50Ms: Math.round(pct(times, 50)), p95Ms: Math.round(pct(times, 95)) },
      baseline: { name: 'the same print view from a static file, printed by Chromium', p50Ms: Math.round(pct(staticTimes, 50)), p95Ms: Math.round(pct(staticTimes, 95)) },
      ratioP50: ratio,
      flood: {
        calls: FLOOD,
        served,
        refused503: refused,
        servedShare: round(served / FLOOD, 2),
        other,
        wallMs: Math.round(floodMs),
        survived: after.status === 201,
        idleRssMiB: { server: round(idle.server / MIB, 1), chromium: round(idle.chromium / MIB, 1) },
        peakRssMiB: { server: round(peak.server / MIB, 1), chromium: round(peak.chromium / MIB, 1) },
      },
    },
    [
      atMost('render p50 / static print p50', ratio, GOAL_RATIO, `static print p50 ${Math.round(pct(staticTimes, 50))} ms`),
      exactly('flood answers other than 201 or 503 render-queue-full', FLOOD - served - refused, 0, `${FLOOD} calls at once`),
      exactly('renders failing after the flood', after.status === 201 ? 0 : 1, 0, 'one render'),
    ],
  );
} finally {
  await baseline?.close();
  await child?.stop();
  await Promise.all([db.stop(), s3.stop()]);
}
