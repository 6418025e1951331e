// The steps of the formIntake process over the instance row: what to do with the submission,
// and the write-backs of processStartStatus (spec: "process write-back task").
import type { Db } from '../../db/client';
import { findFormInstance, mergeFormInstanceContext } from '../../db/queries/form-instances';
import { caseProcessRefOf, type FormSubmission } from '../../domain/forms/intake-process';
import { parseSubmissionHandling, type SubmissionHandling } from '../../domain/forms/instance-rules';
import { formDefinitionCapability as cap } from './form-definitions';

export interface IntakePlan {
  handling: SubmissionHandling;
  submission: FormSubmission;
  /** The submission's case: the respondent's processRef, else the process business key `SM-<id>`. */
  processRef: string;
}

/** Null: the instance is gone or not SUBMITTED (already processed by an earlier run). */
export async function planIntake(db: Db, tenantId: string, instanceId: string, runId: string): Promise<IntakePlan | null> {
  const row = await findFormInstance(db, { tenantId, id: instanceId });
  if (!row || row.state !== 'SUBMITTED') return null;
  const definition = await cap.queries.find(db, { tenantId, id: row.definitionId });
  // A submission without a processRef gets its process business key as its case, so its PDF has a home.
  const processRef = caseProcessRefOf(instanceId, row.context);
  await mergeFormInstanceContext(db, { tenantId, id: instanceId }, { processStartStatus: 'STARTED', processInstanceId: runId, processRef });
  return {
    processRef,
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

/** Recorded on the instance when its PDF could not be made; the submission is handled all the same. */
export async function recordPdfFailure(db: Db, tenantId: string, instanceId: string, reason: string) {
  return mergeFormInstanceContext(db, { tenantId, id: instanceId }, { submissionPdfError: reason.slice(0, 500) });
}
