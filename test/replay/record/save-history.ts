// Recording side of the replay corpus: waits until a run is closed (or continued as new), fetches
// its history and writes it, as the JSON the Temporal CLI and UI also produce plus its workflow
// id, to test/replay/histories/<workflow type>/<path>.json. Only `npm run replay:record` runs this.
import type { Client } from '@temporalio/client';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { HISTORIES_DIR } from '../corpus';
import { historyToJson } from '../history-json';

export interface RecordedRun {
  workflowId: string;
  /** Absent: the latest run of the workflow id. */
  runId?: string;
}

/** Closed or continued as new: the history will not grow any more. */
async function closedHistory(client: Client, run: RecordedRun, timeoutMs: number) {
  const handle = client.workflow.getHandle(run.workflowId, run.runId);
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const described = await handle.describe();
    if (described.status.name !== 'RUNNING') return { type: described.type, workflowId: described.workflowId, history: await handle.fetchHistory() };
    if (Date.now() > deadline) throw new Error(`${run.workflowId} still RUNNING after ${timeoutMs} ms: a corpus history must be closed`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Writes the run's history as `<type>/<path>.json` and answers the file written (repository-relative). */
export async function saveHistory(client: Client, run: RecordedRun, path: string, timeoutMs = 60_000): Promise<string> {
  const { type, history, workflowId } = await closedHistory(client, run, timeoutMs);
  const file = join(HISTORIES_DIR, type, `${path}.json`);
  await mkdir(dirname(file), { recursive: true });
  // The workflow id is not in the history, but the code reads it (a child's id is derived from it):
  // the replay needs it. Pretty-printed, so a re-recording reviews as a diff.
  await writeFile(file, `${JSON.stringify({ workflowId, ...(historyToJson(history) as object) }, null, 2)}\n`);
  return relative(join(HISTORIES_DIR, '..', '..', '..'), file);
}
