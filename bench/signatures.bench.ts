/**
 * bench/signatures: the seal (integrations/seal/seal.ts) of a 10-page PDF signed by 3 signers
 * (a PNG signature, typed initials on every page, name and date each; 12 audit events), against
 * the local RFC 3161 stand-in (`openssl ts -reply`, test/stand-ins/tsa).
 *
 * - latency: p50 and p99 of ROUNDS (env, default 30) seals with the time spent waiting for the
 *   timestamp authority taken out (reported apart), against a full pdf-lib load-and-save of the
 *   same source PDF measured in the same rounds, alternated (ratio seal / baseline);
 * - memory: peak RSS of this process while 10 seals run at once, and its idle RSS before.
 *
 * Goal: seal p50 (excluding the TSA) at most 20 x the load-and-save p50 of the same rounds (8x on a
 * quiet machine, 14.8x on a loaded one, docs/signatures.md). Prints exactly one JSON line.
 *
 * Run: npm run bench -- signatures
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import pino from 'pino';
import type { SealMark, SealRequest } from '../domain/signatures/seal-contract';
import { createSealer } from '../integrations/seal/seal';
import { startTsa } from '../test/stand-ins/tsa/server';
import { makeOrgChain, sealSettings, solidPng } from '../test/support/seal';
import { atMost, report } from './support/goals';
import { roundOrder } from './support/order';
import { percentile as pct, round } from './support/stats';

const ROUNDS = Number(process.env.ROUNDS ?? 30);
const GOAL_RATIO = 20;
const AT_ONCE = 10;
const MIB = 1024 * 1024;
const log = (m: string) => process.stderr.write(`[signatures] ${m}\n`);

async function tenPages(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.TimesRoman);
  for (let p = 1; p <= 10; p++) {
    const page = doc.addPage([595, 842]);
    for (let l = 0; l < 50; l++) {
      page.drawText(`${p}.${l} The parties agree to the terms set out in this clause, subject to the schedule.`, { x: 50, y: 790 - l * 14, size: 10, font });
    }
  }
  return doc.save();
}

const dir = await mkdtemp(join(tmpdir(), 'bench-signatures-'));
const tsa = await startTsa();
try {
  const org = await makeOrgChain(dir);
  const sourcePdf = await tenPages();
  const signerIds = ['employee', 'manager', 'hr'];
  const pngs = await Promise.all(signerIds.map((_, i) => solidPng(dir, 300 + i * 20, 90)));
  const marks: SealMark[] = signerIds.flatMap((_, i): SealMark[] => [
    { type: 'SIGNATURE', png: pngs[i]!, page: 10, x: 50 + i * 170, y: 600, w: 160, h: 50 },
    { type: 'NAME', text: `Signer ${i + 1} Example`, page: 10, x: 50 + i * 170, y: 660, w: 160, h: 16 },
    { type: 'DATE', text: '2026-11-23', page: 10, x: 50 + i * 170, y: 680, w: 100, h: 16 },
    ...Array.from({ length: 10 }, (_, p): SealMark => ({ type: 'INITIALS', typedText: `S${i + 1}E`, page: p + 1, x: 400 + i * 50, y: 800, w: 45, h: 25 })),
  ]);
  const request: SealRequest = {
    instanceId: '7d9b0c4e-2a51-4f0e-9d47-3b1e2c6a9f10',
    sourcePdf,
    marks,
    title: 'Bench contract, version 1',
    signers: signerIds.map((id, i) => ({ signerId: id, label: id, name: `Signer ${i + 1} Example`, email: `${id}@example.com`, signedAt: new Date().toISOString() })),
    events: signerIds.flatMap((id) =>
      ['opened', 'consented', 'signed', 'reminded'].map((action) => ({
        at: new Date().toISOString(),
        action,
        signerId: id,
        ip: '198.51.100.7',
        userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 Safari/605.1.15',
        ipRisk: 'public',
        geo: 'DE',
      })),
    ),
  };
  const seal = createSealer({ settings: sealSettings(tsa, org, dir), logger: pino({ level: 'silent' }) });
  const baseline = async () => {
    const t = performance.now();
    await (await PDFDocument.load(sourcePdf)).save();
    return performance.now() - t;
  };
  const sealOnce = async () => {
    const t = performance.now();
    const r = await seal(request);
    return { total: performance.now() - t, tsa: r.tsaMillis, bytes: r.pdf.length };
  };

  for (let i = 0; i < 3; i++) await Promise.all([sealOnce(), baseline()]);
  const sealMs: number[] = [];
  const tsaMs: number[] = [];
  const baseMs: number[] = [];
  let bytes = 0;
  const sides = {
    seal: async () => {
      const s = await sealOnce();
      sealMs.push(s.total - s.tsa);
      tsaMs.push(s.tsa);
      bytes = s.bytes;
    },
    baseline: async () => void baseMs.push(await baseline()),
  };
  // Alternately first: neither side always runs on the garbage the other left behind.
  for (let i = 0; i < ROUNDS; i++) for (const side of roundOrder(['seal', 'baseline'] as const, i)) await sides[side]();
  log(`${ROUNDS} rounds done; ${AT_ONCE} at once next`);

  global.gc?.();
  const idle = process.memoryUsage().rss;
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
  const t = performance.now();
  await Promise.all(Array.from({ length: AT_ONCE }, sealOnce));
  const concurrentWall = performance.now() - t;
  clearInterval(sampler);
  peak = Math.max(peak, process.memoryUsage().rss);

  const p50 = pct(sealMs, 50);
  const ratio = round(p50 / pct(baseMs, 50), 2);
  report(
    'signatures',
    {
      rounds: ROUNDS,
      sealedBytes: bytes,
      sealExcludingTsaMs: { p50: round(p50, 1), p99: round(pct(sealMs, 99), 1) },
      tsaMs: { p50: round(pct(tsaMs, 50), 1), p99: round(pct(tsaMs, 99), 1) },
      baseline: { name: 'pdf-lib load-and-save of the source PDF', p50Ms: round(pct(baseMs, 50), 1), p99Ms: round(pct(baseMs, 99), 1) },
      ratioP50: ratio,
      concurrent: { seals: AT_ONCE, wallMs: round(concurrentWall, 1), idleRssMiB: round(idle / MIB, 1), peakRssMiB: round(peak / MIB, 1), aboveIdleMiB: round((peak - idle) / MIB, 1) },
    },
    [atMost('seal p50 (TSA excluded) / load-and-save p50', ratio, GOAL_RATIO, `load-and-save p50 ${round(pct(baseMs, 50), 1)} ms`)],
  );
} finally {
  await tsa.stop();
  await rm(dir, { recursive: true, force: true });
}
