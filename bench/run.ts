// `npm run bench`: runs every bench/*.bench.ts one after another; each prints one JSON line
// (support/goals.ts), passed through here as it comes. `npm run bench -- <name> ...` runs those
// whose file name contains a name (`access` runs access and access-observability). At the end, a
// table of every goal: bench, goal, figure, baseline, met. Exits 1 when any goal is missed, or a
// bench fails, prints no line, or does not end within BENCH_TIMEOUT_MS.
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseBenchLine, type Goal } from './support/goals';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const BENCH_TIMEOUT_MS = Number(process.env.BENCH_TIMEOUT_MS ?? 30 * 60 * 1000);

function runBench(file: string): Promise<{ code: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d;
      process.stdout.write(d);
    });
    const timer = setTimeout(() => {
      process.stderr.write(`${file} ran past ${BENCH_TIMEOUT_MS} ms: stopped\n`);
      child.kill('SIGKILL');
    }, BENCH_TIMEOUT_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout });
    });
  });
}

const rows: { bench: string; goal: Goal | undefined; note?: string }[] = [];
let failed = 0;
for (const file of files) {
  const { code, stdout } = await runBench(file);
  const line = parseBenchLine(stdout);
  const name = line?.bench ?? file.replace(/\.bench\.ts$/, '');
  if (!line) rows.push({ bench: name, goal: undefined, note: `no result line (exit ${code})` });
  else for (const goal of line.goals) rows.push({ bench: name, goal });
  if (code !== 0 || !line?.met) failed++;
}

const table = [
  ['bench', 'goal', 'figure', 'baseline', 'met'],
  ...rows.map(({ bench, goal, note }) => (goal ? [bench, `${goal.name} ${goal.goal}`, String(goal.figure), goal.baseline, goal.met ? 'yes' : 'NO'] : [bench, note!, '', '', 'NO'])),
];
const widths = table[0]!.map((_, i) => Math.max(...table.map((r) => r[i]!.length)));
const text = table.map((r) => r.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd());
process.stdout.write(`\n${[text[0], widths.map((w) => '-'.repeat(w)).join('  '), ...text.slice(1)].join('\n')}\n`);
process.stdout.write(failed ? `\n${failed} of ${files.length} benches missed a goal or failed\n` : `\nall ${files.length} benches met their goals\n`);
process.exit(failed ? 1 : 0);
