/**
 * Goals and the one JSON line every bench prints.
 *
 * A goal is never an absolute time: it is a ratio to a baseline measured in the same run (the
 * machines are shared, so only ratios carry from one run to the next), or a count ("0 lost").
 * `report()` prints `{ bench, ...figures, goals: [...], met }` as one line on stdout and sets the
 * exit code to 1 when any goal is missed; bench/run.ts reads that line for its table.
 *
 *   report('access', { guarded, baseline }, [atLeast('guarded / bare', ratio, 0.7, `${bareRps} rps bare`)]);
 */
export interface Goal {
  /** What is compared, e.g. `guarded / bare rps`. */
  name: string;
  /** The goal as printed, e.g. `>= 0.7`, `<= 20`, `= 0`. */
  goal: string;
  figure: number;
  /** The same-run baseline the figure is relative to, in words (`32,000 rps bare`), or a count's meaning. */
  baseline: string;
  met: boolean;
}

/** A ratio (or count) that must reach `min`; NaN never does. */
export const atLeast = (name: string, figure: number, min: number, baseline: string): Goal => ({ name, goal: `>= ${min}`, figure, baseline, met: figure >= min });

/** A ratio (or count) that must stay at or below `max`; NaN never does. */
export const atMost = (name: string, figure: number, max: number, baseline: string): Goal => ({ name, goal: `<= ${max}`, figure, baseline, met: figure <= max });

/** A ratio that must lie between `min` and `max` (a check of the bench itself: two identical sides must measure alike); NaN never does. */
export const within = (name: string, figure: number, min: number, max: number, baseline: string): Goal => ({ name, goal: `${min}..${max}`, figure, baseline, met: figure >= min && figure <= max });

/** A count that must be exactly `expected` (0 lost, 0 failed answers, one row per call). */
export const exactly = (name: string, figure: number, expected: number, baseline: string): Goal => ({ name, goal: `= ${expected}`, figure, baseline, met: figure === expected });

export interface BenchLine {
  bench: string;
  goals: Goal[];
  met: boolean;
  [figure: string]: unknown;
}

/** Prints the bench's one JSON line and sets exit code 1 when a goal is missed (or there is none). */
export function report(bench: string, figures: Record<string, unknown>, goals: Goal[]): BenchLine {
  const met = goals.length > 0 && goals.every((g) => g.met);
  const line: BenchLine = { bench, ...figures, goals, met };
  process.stdout.write(`${JSON.stringify(line)}\n`);
  if (!met) process.exitCode = 1;
  return line;
}

/** The bench's line among the lines a bench printed (the last one with `bench` and `goals`). */
export function parseBenchLine(stdout: string): BenchLine | undefined {
  for (const text of stdout.trim().split('\n').reverse()) {
    try {
      const line = JSON.parse(text) as Partial<BenchLine>;
      if (typeof line.bench === 'string' && Array.isArray(line.goals)) return line as BenchLine;
    } catch {
      // not the result line
    }
  }
  return undefined;
}
