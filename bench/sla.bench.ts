/**
 * bench/sla: SLA due dates per second, the engine vs the minute-stepping reference, same run.
 *
 * Calendar: three locations in three time zones (New York, Berlin, Sydney) with weekday hours
 * (Berlin with a lunch break, Sydney with a Saturday morning), a year of public holidays from the
 * date-holidays data (2025) plus a recurring company day. Budgets from 1 minute to 30 business
 * days (log-uniform), received instants spread over 2025. Prints exactly one JSON line; exits 1
 * when the goal is missed or any case differs from the reference.
 *
 * The engine runs on one compiled calendar, as a service holding it per calendar version would
 * (its open-time index fills lazily and stays); `cold` is the first due date on a freshly compiled
 * calendar (a cache miss), with the compilation timed apart.
 *
 * Goals: engine >= 1,000 x the reference (median of the passes' ratios); 0 cases differing.
 *
 * Run: npx tsx bench/sla.bench.ts
 */
import { performance } from 'node:perf_hooks';
import {
  type CalendarSnapshot,
  type CompiledCalendar,
  type SlaResult,
  type SnapshotHoliday,
  type SnapshotHours,
  CalendarEngineError,
  calculateSla,
  compileCalendar,
  importedToHolidayInput,
  openTimeIndexFootprint,
  previewHolidays,
} from '../domain/calendar/index.js';
import { atLeast, exactly, report } from './support/goals';
import { referenceDueDate } from './support/minute-stepping-reference.js';
import { median, percentileOfSorted as percentile, round } from './support/stats';

const GOAL_RATIO = 1000;
const ENGINE_SECONDS = 4;
const BASELINE_SECONDS = 30;
const PASSES = 3;
const COLD_ROUNDS = 3;

// Deterministic PRNG (mulberry32) so every run measures the same cases.
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const weekdays = (start: string, end: string): SnapshotHours[] =>
  [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, startTime: start, endTime: end, active: true }));

const holidaysOf = (country: string, region?: string): SnapshotHoliday[] =>
  previewHolidays({ country, region, year: 2025, types: ['public', 'bank'] }).map(importedToHolidayInput);

const calendar: CalendarSnapshot = {
  calendarCode: 'GLOBAL-SUPPORT',
  active: true,
  businessDayMinutes: 480,
  locations: [
    { locationCode: 'NYC', timezone: 'America/New_York', enabled: true, hours: weekdays('09:00', '17:00'), holidays: holidaysOf('US', 'NY') },
    {
      locationCode: 'BER',
      timezone: 'Europe/Berlin',
      enabled: true,
      hours: [...weekdays('08:00', '12:00'), ...weekdays('13:00', '17:00')],
      holidays: [...holidaysOf('DE', 'BE'), { date: '2020-06-15', name: 'Company day', closed: true, recurring: true }],
    },
    {
      locationCode: 'SYD',
      timezone: 'Australia/Sydney',
      enabled: true,
      hours: [...weekdays('09:00', '17:30'), { dayOfWeek: 6, startTime: '09:00', endTime: '12:00', active: true }],
      holidays: holidaysOf('AU', 'NSW'),
    },
  ],
};

interface Case {
  received: string;
  receivedMs: number;
  businessDays: number;
  businessMinutes: number;
  budget: number;
}

const random = rng(20250101);
const start2025 = Date.UTC(2025, 0, 1);
const MAX_BUDGET = 30 * 480;
const cases: Case[] = Array.from({ length: 400 }, () => {
  const receivedMs = start2025 + Math.floor(random() * 300 * 1440) * 60_000; // Jan..Oct 2025, whole minutes
  const budget = Math.max(1, Math.min(MAX_BUDGET, Math.round(Math.exp(random() * Math.log(MAX_BUDGET)))));
  return {
    received: new Date(receivedMs).toISOString(),
    receivedMs,
    businessDays: Math.floor(budget / 480),
    businessMinutes: budget % 480,
    budget,
  };
});
cases[0] = { ...cases[0]!, budget: 1, businessDays: 0, businessMinutes: 1 };
cases[1] = { ...cases[1]!, budget: MAX_BUDGET, businessDays: 30, businessMinutes: 0 };

const compiled = compileCalendar(calendar);

const runOn = (cal: CompiledCalendar, c: Case): SlaResult =>
  calculateSla(cal, {
    receivedDateTime: c.received,
    receivedTimezone: 'Europe/Berlin',
    sla: { businessDays: c.businessDays, businessMinutes: c.businessMinutes },
  });
const runEngine = (c: Case) => runOn(compiled, c);

// Agreement first, on every case and untimed: the warm engine and a first calculation on a freshly
// compiled calendar must both give the reference's due date and locationsUsed (or both find the
// budget unreachable).
const outcome = (run: () => SlaResult): string => {
  try {
    const r = run();
    return `${r.dueDateTimeUtc} ${r.locationsUsed.join()}`;
  } catch (e) {
    if (e instanceof CalendarEngineError && e.kind === 'unreachable') return 'unreachable';
    throw e;
  }
};
let agree = 0;
const disagreements: string[] = [];
for (const c of cases) {
  const ref = referenceDueDate(calendar, c.receivedMs, c.budget);
  const expected = ref === undefined ? 'unreachable' : `${new Date(ref.due).toISOString()} ${ref.locationsUsed.join()}`;
  const warm = outcome(() => runEngine(c));
  const cold = outcome(() => runOn(compileCalendar(calendar), c));
  if (warm === expected && cold === expected) agree++;
  else if (disagreements.length < 3) disagreements.push(`${c.received}+${c.budget}: ${expected} / warm ${warm} / cold ${cold}`);
}

// Warm-up (JIT, zone tables, the index's chunks).
for (let i = 0; i < 4000; i++) runEngine(cases[i % cases.length]!);

// Warm: per-call latencies and throughput over the case list, repeated.
const latencies: number[] = [];
let engineOps = 0;
const engineStart = performance.now();
while (performance.now() - engineStart < ENGINE_SECONDS * 1000) {
  for (const c of cases) {
    const t0 = performance.now();
    runEngine(c);
    latencies.push(performance.now() - t0);
    engineOps++;
  }
}
const engineElapsed = (performance.now() - engineStart) / 1000;
latencies.sort((a, b) => a - b);

// Cold: a fresh compiled calendar per case; compilation and the first due date timed apart.
const compileTimes: number[] = [];
const coldTimes: number[] = [];
for (let r = 0; r < COLD_ROUNDS; r++) {
  for (const c of cases) {
    const t0 = performance.now();
    const fresh = compileCalendar(calendar);
    const t1 = performance.now();
    runOn(fresh, c);
    coldTimes.push(performance.now() - t1);
    compileTimes.push(t1 - t0);
  }
}
compileTimes.sort((a, b) => a - b);
coldTimes.sort((a, b) => a - b);

// Baseline vs engine on the same cases, interleaved case by case so both see the same machine
// load: each case runs once through the reference, then the engine runs the whole case list
// starting at that case (so over a pass the engine sees the same mix of cases). Several passes;
// the ratio reported is the median of the passes' ratios (robust to load spikes on a shared box).
// The engine's window is the whole list, not a few calls: switching from a reference run costs any
// code some tens of microseconds on a shared machine (caches, scheduling), lost in the reference's
// milliseconds but, over 20 calls of a microsecond (the earlier window), more than the calls
// themselves, which capped the measurable ratio near 1,000 whatever the engine did.
const ENGINE_REPEAT = cases.length;
let baselineOps = 0;
let baselineTime = 0;
let sameCasesOpsCount = 0;
let sameCasesTime = 0;
const passRatios: number[] = [];
const baselineStart = performance.now();
for (let pass = 0; pass < PASSES; pass++) {
  let passRef = 0;
  let passRefOps = 0;
  let passEng = 0;
  let passEngOps = 0;
  for (let ci = 0; ci < cases.length; ci++) {
    const c = cases[ci]!;
    const r0 = performance.now();
    referenceDueDate(calendar, c.receivedMs, c.budget);
    passRef += performance.now() - r0;
    passRefOps++;
    const e0 = performance.now();
    for (let k = 0; k < ENGINE_REPEAT; k++) runEngine(cases[(ci + k) % cases.length]!);
    passEng += performance.now() - e0;
    passEngOps += ENGINE_REPEAT;
    if (performance.now() - baselineStart > BASELINE_SECONDS * 1000) break;
  }
  baselineTime += passRef;
  baselineOps += passRefOps;
  sameCasesTime += passEng;
  sameCasesOpsCount += passEngOps;
  passRatios.push(passEngOps / passEng / (passRefOps / passRef));
  if (performance.now() - baselineStart > BASELINE_SECONDS * 1000) break;
}

const ratio = median(passRatios);
const index = openTimeIndexFootprint(compiled);
const figures = {
  calendar: { locations: calendar.locations.map((l) => `${l.locationCode}:${l.timezone}`), holidays: calendar.locations.reduce((n, l) => n + l.holidays.length, 0) },
  cases: { count: cases.length, budgetMinutes: { min: 1, max: MAX_BUDGET } },
  engine: {
    opsPerSec: Math.round(engineOps / engineElapsed),
    opsPerSecOnBaselineCases: Math.round(sameCasesOpsCount / (sameCasesTime / 1000)),
    p50Ms: round(percentile(latencies, 50), 4),
    p99Ms: round(percentile(latencies, 99), 4),
    maxMs: round(latencies[latencies.length - 1] ?? NaN, 3),
    calculations: engineOps,
  },
  cold: {
    firstDueDateP50Ms: round(percentile(coldTimes, 50), 4),
    firstDueDateP99Ms: round(percentile(coldTimes, 99), 4),
    compileP50Ms: round(percentile(compileTimes, 50), 4),
    compileP99Ms: round(percentile(compileTimes, 99), 4),
    calculations: coldTimes.length,
  },
  index: {
    chunks: index.chunks,
    segments: index.segments,
    bytes: index.bytes,
    chunkDays: index.chunkDays,
    maxChunks: index.maxChunks,
    maxBytes: index.maxBytes,
  },
  baseline: {
    name: 'minute-stepping reference',
    opsPerSec: round(baselineOps / (baselineTime / 1000), 2),
    calculations: baselineOps,
    agreement: `${agree}/${cases.length}`,
    ...(disagreements.length > 0 ? { disagreements } : {}),
  },
  ratio: round(ratio, 1),
  ratioPerPass: passRatios.map((r) => round(r, 1)),
};
report('sla', figures, [
  atLeast('engine / reference, due dates per second', round(ratio, 1), GOAL_RATIO, `reference ${figures.baseline.opsPerSec}/s`),
  exactly('cases differing from the reference', cases.length - agree, 0, `${cases.length} cases`),
]);
