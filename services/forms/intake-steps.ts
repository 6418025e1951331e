// The steps of the formIntake process over the instance row: what to do with the submission,
// and the write-backs of processStartStatus (spec: "process write-back task").
import type { Db } from '../../db/client';
import { findFormInstance, mergeFormInstanceContext } from '../../db/queries/form-instances';
import type { FormSubmission } from '../../domain/forms/intake-process';
import { parseSubmissionHandling, type SubmissionHandling } from '../../domain/forms/instance-rules';
import { formDefinitionCapability as cap } from './form-definitions';

export interface IntakePlan {
  handling: SubmissionHandling;
  submission: FormSubmission;
}

/** Null: the instance is gone or not SUBMITTED (already processed by an earlier run). */
export async function planIntake(db: Db, tenantId: string, instanceId: string, runId: string): Promise<IntakePlan | null> {
  const row = await findFormInstance(db, { tenantId, id: instanceId });
  if (!row || row.state !== 'SUBMITTED') return null;
  const definition = await cap.queries.find(db, { tenantId, id: row.definitionId });
  await mergeFormInstanceContext(db, { tenantId, id: instanceId }, { processStartStatus: 'STARTED', processInstanceId: runId });
  return {
    // A definition deleted since the submission is still handled as it was when submitted.
    handling: parseSubmissionHandling(definition?.submissionHandling ?? null),
    submission: { tenantId, instanceId, definitionCode: row.definitionCode, version: row.definitionVersion, data: row.data },
  };
}

/** PROCESSED, linked to the process that took the submission. */
export async function writeBackProcessed(db: Db, tenantId: string, instanceId: string, processInstanceId: string) {
  return mergeFormInstanceContext(db, { tenantId, id: instanceId }, { processStartStatus: 'PROCESSED', processInstanceId }, 'PROCESSED');
}

/** The submission could not be handled: recorded on the instance, which stays SUBMITTED. */
export async function recordIntakeFailure(db: Db, tenantId: string, instanceId: string, reason: string) {
  return mergeFormInstanceContext(db, { tenantId, id: instanceId }, { processStartStatus: 'FAILED', processError: reason.slice(0, 500) });
}
