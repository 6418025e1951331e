// `npm run bench`: runs every bench/*.bench.ts one after another; each prints one JSON line.
// `npm run bench -- <name>` runs those whose file name contains it (`access` runs access and
// access-observability). A bench that does not end within BENCH_TIMEOUT_MS has failed.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
const BENCH_TIMEOUT_MS = 30 * 60 * 1000;
let failed = 0;
for (const file of files) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: ['ignore', 'inherit', 'inherit'], timeout: BENCH_TIMEOUT_MS });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`${file} exited with ${r.status}\n`);
  }
}
process.exit(failed ? 1 : 0);
