// `npm run bench`: runs every bench/*.bench.ts one after another; each prints one JSON line.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const dir = fileURLToPath(new URL('.', import.meta.url));
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)))
  .sort();
let failed = 0;
for (const file of files) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', `${dir}${file}`], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) {
    failed++;
    process.stderr.write(`${file} exited with ${r.status}\n`);
  }
}
process.exit(failed ? 1 : 0);
