// The corpus test can fail: a recorded formIntake history replayed against a copy of formIntake
// whose steps were swapped (test/replay/fixtures/reordered-form-intake.ts) is a
// DeterminismViolationError, and the same history replays cleanly against the real code.
import { Worker } from '@temporalio/worker';
import { DeterminismViolationError } from '@temporalio/workflow';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { bundleOf, readCorpus } from './corpus';

const REORDERED = fileURLToPath(new URL('./fixtures/reordered-form-intake.ts', import.meta.url));
// Two bundles are built (webpack); seconds each, more on a loaded machine.
const BUNDLE_TIMEOUT_MS = 240_000;

describe('the replay guard', () => {
  const recorded = readCorpus().find((h) => h.name === 'formIntake/attachments-and-pdf.json');

  it('reports a DeterminismViolationError for reordered code, and none for the current code', { timeout: BUNDLE_TIMEOUT_MS }, async () => {
    expect(recorded, 'record the corpus first: npm run replay:record').toBeDefined();
    const replay = (workflowsPath: string) =>
      Worker.runReplayHistory({ workflowsPath, replayName: 'determinism-guard' }, recorded!.history, recorded!.workflowId).then(
        () => undefined,
        (err: unknown) => err,
      );
    const failure = await replay(REORDERED);
    expect(failure).toBeInstanceOf(DeterminismViolationError);
    expect((failure as Error).message).toMatch(/mirrorFormAttachments|renderFormSubmissionPdf|[Nn]ondetermin/);
    expect(await replay(bundleOf('formIntake'))).toBeUndefined();
  });
});
