// The one way an instance becomes SUBMITTED: in the caller's transaction, the instance row and the
// start row of its formIntake process (the spec's FormSubmissionOutbox) are written together.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Tx } from '../../db/client';
import { enqueueStart } from '../../db/outbox';
import { insertFormInstance, updateFormInstance, type FormInstanceRow, type NewFormInstance } from '../../db/queries/form-instances';
import { AppError } from '../../domain/errors';
import { FormIntakeProcess, processBusinessKeyOf } from '../../domain/forms/intake-process';

/** 256 bits, URL-safe: an instance token is a bearer credential for recipient pages. */
export const newInstanceToken = () => randomBytes(32).toString('base64url');

const queuedContext = (instanceId: string, context: Record<string, unknown>) => ({
  ...context,
  processStartStatus: 'QUEUED' as const,
  businessKey: processBusinessKeyOf(instanceId),
});

/** A new instance, SUBMITTED at once (public embed submit). Enqueue comes last: it takes the workflow's lock. */
export async function insertSubmittedInstance(
  tx: Tx,
  row: Omit<NewFormInstance, 'id' | 'state' | 'token' | 'submittedAt' | 'context'> & { context?: Record<string, unknown> },
): Promise<FormInstanceRow> {
  const id = randomUUID();
  const created = await insertFormInstance(tx, {
    ...row,
    id,
    state: 'SUBMITTED',
    token: newInstanceToken(),
    submittedAt: new Date(),
    context: queuedContext(id, row.context ?? {}),
  });
  await enqueueStart(tx, FormIntakeProcess, { tenantId: created.tenantId, instanceId: id });
  return created;
}

/** An existing open instance at `version` becomes SUBMITTED with `data`. */
export async function markInstanceSubmitted(tx: Tx, row: FormInstanceRow, data: Record<string, unknown>): Promise<FormInstanceRow> {
  const updated = await updateFormInstance(tx, { tenantId: row.tenantId, id: row.id, version: row.version }, {
    state: 'SUBMITTED',
    data,
    submittedAt: new Date(),
    context: queuedContext(row.id, row.context),
  });
  if (!updated) throw new AppError('version-conflict', 'The form instance changed since it was read; reload and retry');
  await enqueueStart(tx, FormIntakeProcess, { tenantId: row.tenantId, instanceId: row.id });
  return updated;
}
