// Reads Schemathesis' NDJSON reports (scripts/fuzz.ts writes them to .data/fuzz/) and prints, per
// operation, how often each status was answered, then the operations that never got past a 404 or
// a 404: no success answer, and 404 the most frequent one (the logic the fuzzer did not reach).
// Counts requests and 5xx over all passes.
//   npx tsx scripts/fuzz-report.ts [report.ndjson ...]   (default: every report in .data/fuzz/)
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

type Interaction = { request: { method: string }; response?: { status_code: number } | null };
type Event = { ScenarioFinished?: { recorder?: { label: string; interactions?: Record<string, Interaction> } } };

function statusesPerOperation(files: string[]): Map<string, Map<number, number>> {
  const seen = new Map<string, Map<number, number>>();
  for (const file of files) {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      if (!line.includes('"ScenarioFinished"')) continue;
      const recorder = (JSON.parse(line) as Event).ScenarioFinished?.recorder;
      if (!recorder) continue;
      const counts = seen.get(recorder.label) ?? new Map<number, number>();
      seen.set(recorder.label, counts);
      for (const { response } of Object.values(recorder.interactions ?? {})) {
        if (response) counts.set(response.status_code, (counts.get(response.status_code) ?? 0) + 1);
      }
    }
  }
  return seen;
}

/** Operations that never answered below 400 and answered 404 more often than anything else. */
function unreached(seen: Map<string, Map<number, number>>): string[] {
  return [...seen]
    .filter(([, counts]) => {
      const statuses = [...counts].sort(([, a], [, b]) => b - a);
      return statuses.every(([status]) => status >= 400) && (statuses.length === 0 || statuses[0]![0] === 404);
    })
    .map(([label]) => label)
    .sort();
}

const dir = resolve(import.meta.dirname, '../.data/fuzz');
const files = process.argv.length > 2 ? process.argv.slice(2) : readdirSync(dir).filter((f) => f.endsWith('.ndjson')).map((f) => join(dir, f));
const seen = statusesPerOperation(files);
let requests = 0;
let serverErrors = 0;
for (const [label, counts] of [...seen].sort(([a], [b]) => a.localeCompare(b))) {
  const parts = [...counts].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`);
  for (const [status, n] of counts) {
    requests += n;
    if (status >= 500) serverErrors += n;
  }
  console.log(`${label}: ${parts.join(' ') || 'no request'}`);
}
const stuck = unreached(seen);
console.log(`\n${seen.size} operations, ${requests} requests, ${serverErrors} answered 5xx`);
console.log(`${stuck.length} operations never got past a 404:${stuck.map((l) => `\n  ${l}`).join('')}`);
