// Replay before release (docs/releases.md): every recorded history in test/replay/histories/ is
// replayed against the current workflow code, bundled from workflowsPath as the worker bundles
// it. A change that reorders a workflow's commands fails here, naming the history, instead of
// failing the runs in flight after a deploy. Re-record with `npm run replay:record`.
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import { bundleOf, missingFromCorpus, readCorpus } from './corpus';

// Bundling the workflow code (webpack over workflows/ and domain/) takes seconds, more on a loaded machine.
const BUNDLE_TIMEOUT_MS = 240_000;

let installed = false;
/** The SDK's own log lines are noise here; a failure comes back in the replay result. */
function quietRuntime() {
  if (installed) return;
  installed = true;
  try {
    Runtime.install({ logger: new DefaultLogger('ERROR'), shutdownSignals: [] });
  } catch {
    // Another test file of this worker thread installed it first.
  }
}

describe('replay corpus', () => {
  const corpus = readCorpus();

  it('holds every workflow type and every path the release depends on', async () => {
    expect(await missingFromCorpus()).toEqual([]);
  });

  it('replays every history against the current code without non-determinism', { timeout: BUNDLE_TIMEOUT_MS }, async () => {
    quietRuntime();
    const byBundle = new Map<string, typeof corpus>();
    for (const h of corpus) byBundle.set(bundleOf(h.workflowType), [...(byBundle.get(bundleOf(h.workflowType)) ?? []), h]);
    const failures: string[] = [];
    let replayed = 0;
    for (const [workflowsPath, histories] of byBundle) {
      const results = Worker.runReplayHistories(
        { workflowsPath, replayName: 'replay-corpus' },
        histories.map((h) => ({ workflowId: h.workflowId, history: h.history })),
      );
      // One history at a time, in the order given: the n-th result is the n-th file.
      let n = 0;
      for await (const result of results) {
        const file = histories[n++]!;
        expect(result.workflowId, `results out of order at ${file.name}`).toBe(file.workflowId);
        replayed++;
        if (result.error) failures.push(`${file.name}: ${result.error.name}: ${result.error.message}`);
      }
    }
    expect(failures, failures.join('\n')).toEqual([]);
    expect(replayed).toBe(corpus.length);
  });
});
