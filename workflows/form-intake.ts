import { ParentClosePolicy, proxyActivities, setWorkflowOptions, startChild, workflowInfo } from '@temporalio/workflow';
import type { FormActivities } from '../activities/forms';
import type { FormIntakeProcessInput } from '../domain/forms/intake-process';
import { versioningBehaviour } from './versioning-behaviour';

export interface FormIntakeResult {
  instanceId: string;
  outcome: 'stored' | 'workflow-started' | 'failed' | 'nothing-to-do';
  processInstanceId: string | null;
}

const acts = proxyActivities<FormActivities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

/** A render waits behind the worker's queue and Chromium; bounded, so a PDF that cannot be made does not hold the submission (about 15 minutes). */
const pdf = proxyActivities<Pick<FormActivities, 'renderFormSubmissionPdf'>>({
  startToCloseTimeout: '3 minutes',
  retry: { initialInterval: '2 seconds', maximumInterval: '2 minutes', maximumAttempts: 12 },
});

/**
 * One process per submitted instance (business key = instance id), started by the dispatcher
 * from the row written with the submission. It mirrors the attachments, renders the submission
 * PDF, runs the definition's submissionHandling, writes back PROCESSED, and closes its outbox row.
 * An unusable handling is recorded, not retried; so is a PDF that could not be made.
 */
export async function formIntake(input: FormIntakeProcessInput): Promise<FormIntakeResult> {
  const { tenantId, instanceId } = input;
  const done = async (outcome: FormIntakeResult['outcome'], processInstanceId: string | null) => {
    await acts.closeFormIntake(tenantId, instanceId);
    return { instanceId, outcome, processInstanceId };
  };

  const plan = await acts.planFormIntake(tenantId, instanceId);
  if (!plan) return done('nothing-to-do', null);

  const { handling, submission, processRef } = plan;
  await acts.mirrorFormAttachments(tenantId, instanceId, processRef);
  try {
    await pdf.renderFormSubmissionPdf(tenantId, instanceId);
  } catch (err) {
    await acts.recordFormPdfFailure(tenantId, instanceId, err instanceof Error && err.cause instanceof Error ? err.cause.message : String(err));
  }
  if (handling.kind === 'unknown') {
    await acts.recordFormIntakeFailure(tenantId, instanceId, `unknown submissionHandling "${handling.raw}"`);
    return done('failed', null);
  }
  if (handling.kind === 'store') {
    const runId = workflowInfo().runId;
    await acts.writeBackFormInstance(tenantId, instanceId, runId);
    return done('stored', runId);
  }
  let child;
  try {
    // The handling process outlives this one: intake ends once it is started.
    child = await startChild(handling.workflowType, {
      args: [submission],
      workflowId: `${workflowInfo().workflowId}:handling`,
      parentClosePolicy: ParentClosePolicy.ABANDON,
    });
  } catch (err) {
    await acts.recordFormIntakeFailure(tenantId, instanceId, `could not start ${handling.workflowType}: ${err instanceof Error ? err.message : String(err)}`);
    return done('failed', null);
  }
  await acts.writeBackFormInstance(tenantId, instanceId, child.firstExecutionRunId);
  return done('workflow-started', child.firstExecutionRunId);
}
// PINNED: minutes long; a run finishes on the code it started with (docs/releases.md).
setWorkflowOptions(versioningBehaviour('PINNED'), formIntake);
