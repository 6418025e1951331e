// `npm run replay:record` (scripts/replay-record.ts) runs these files, and only these: they drive
// real runs on the stack the test harness starts (PostgreSQL, the Temporal dev server, S3, SMTP)
// and write their histories into test/replay/histories/. The suite's own config never includes them.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    root: fileURLToPath(new URL('../../../', import.meta.url)),
    include: ['test/replay/record/**/*.record.ts'],
    environment: 'node',
    globalSetup: ['test/support/global-setup.ts'],
    // A recorded path waits on real timers (reminders, expiry, reconciliation, scan retries).
    testTimeout: 180_000,
    hookTimeout: 180_000,
    maxWorkers: 2,
    fileParallelism: true,
  },
});
