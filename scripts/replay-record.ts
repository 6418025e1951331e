// `npm run replay:record [-- <file filter>...]`: records the replay corpus (docs/releases.md).
// Starts the stack the test harness starts (PostgreSQL, the Temporal dev server, S3, SMTP; or the
// ones DATABASE_URL, TEMPORAL_ADDRESS, S3_ENDPOINT name), drives real runs of every workflow type
// and path (test/replay/record/*.record.ts) and writes their histories to test/replay/histories/.
// Without a filter the corpus is recorded afresh (the old files go first, so none goes stale).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { HISTORIES_DIR, missingFromCorpus, PROJECT_ROOT, readCorpus } from '../test/replay/corpus';

const filters = process.argv.slice(2);
if (filters.length === 0) rmSync(HISTORIES_DIR, { recursive: true, force: true });

const vitest = join(PROJECT_ROOT, 'node_modules', '.bin', 'vitest');
const run = spawnSync(vitest, ['run', '--config', 'test/replay/record/vitest.config.ts', ...filters], { cwd: PROJECT_ROOT, stdio: 'inherit' });
if (run.status !== 0) {
  process.stderr.write('\nRecording failed: the corpus is incomplete. Fix the failing path and record again (git restores the old files).\n');
  process.exit(run.status ?? 1);
}

const missing = await missingFromCorpus();
process.stdout.write(`\n${readCorpus().length} histories in test/replay/histories/.\n`);
if (missing.length > 0) {
  process.stderr.write(`The corpus lacks:\n  ${missing.join('\n  ')}\n`);
  process.exit(1);
}
process.stdout.write('Replay them against the current code: npx vitest run test/replay\n');
