// A test-only workflow (its own workflowsPath): records probeNote signals in arrival order and,
// deduped by deliveryKey, in effect; returns once `expect` distinct notes arrived.
import { condition, defineSignal, setHandler } from '@temporalio/workflow';
import { ProbeProcess } from '../processes';

type Note = NonNullable<(typeof ProbeProcess.signals.note)['payload']>;
export const probeNote = defineSignal<[Note]>(ProbeProcess.signals.note.name);

export interface ProbeResult {
  arrivals: number[];
  effective: number[];
}

export async function outboxProbe(input: { expect?: number }): Promise<ProbeResult> {
  const arrivals: number[] = [];
  const effective: number[] = [];
  const seen = new Set<string>();
  setHandler(probeNote, (note) => {
    arrivals.push(note.n);
    if (seen.has(note.deliveryKey)) return;
    seen.add(note.deliveryKey);
    effective.push(note.n);
  });
  await condition(() => effective.length >= (input.expect ?? 0));
  return { arrivals, effective };
}
