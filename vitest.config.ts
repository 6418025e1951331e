import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default', 'json'] : ['default'],
    outputFile: { json: '.data/test-results.json' },
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/replay/**/*.test.ts'],
          environment: 'node',
          sequence: { groupOrder: 0 },
          // Property runs and the whole-tree import scan take a second alone and past vitest's 5 s
          // default on a shared, loaded machine; a slow machine is not a failing test.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          sequence: { groupOrder: 1 },
          include: ['test/integration/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['test/support/global-setup.ts'],
          // Hang guards, not speed limits: every test waits on the state it needs. A browser journey
          // through a dozen page states took 61 s under `stress-ng --cpu 2` beside the suite (load 27
          // on two cores) against 8 s quiet, so the guard sits where only a hang reaches it.
          testTimeout: 180_000,
          hookTimeout: 180_000,
          // expect.poll's own default gives up after one second, which a loaded machine can take to
          // reach a page state: polls wait on their state up to a hang guard too.
          expect: { poll: { timeout: 60_000 } },
          // Two cores: a few files at once keeps PostgreSQL and Temporal busy without thrashing.
          maxWorkers: 3,
          fileParallelism: true,
        },
      },
      {
        test: {
          // After the integration suite: its logs must hold none of the personal data it sent.
          name: 'log-scan',
          sequence: { groupOrder: 2 },
          include: ['test/log-scan/**/*.test.ts'],
          environment: 'node',
        },
      },
    ],
  },
});
