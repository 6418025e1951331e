// The tenant's instance management (spec: "internal instance management"): create from the
// published version, read, list, save data (optimistic), submit, cancel. Another tenant's
// instance is not found.
import type { DbOrTx } from '../../db/client';
import { getOutboxRow } from '../../db/outbox';
import {
  findFormInstance,
  insertFormInstance,
  listFormInstances,
  updateFormInstance,
  type FormInstanceRow,
} from '../../db/queries/form-instances';
import { AppError, notFound } from '../../domain/errors';
import type { KeysetPosition } from '../../domain/keyset-cursor';
import { FORMS_CAPABILITY } from '../../domain/forms/intake-process';
import { isCancellable, isEditable, isSubmittable } from '../../domain/forms/instance-rules';
import type { FormInstanceState } from '../../domain/forms/instance-states';
import { repairFormSchema } from '../../domain/forms/schema-repair';
import { validateSubmission } from '../../domain/forms/submission';
import type { Actor, DefinitionDeps } from '../definitions/capability';
import { getDefinition, getDefinitionByCode } from '../definitions/read-definitions';
import { formDefinitionCapability as cap } from './form-definitions';
import { submissionErrors } from './public-intake';
import { markInstanceSubmitted, newInstanceToken } from './submit-instance';

const instanceNotFound = () => notFound('Form instance', 'form-instance-not-found');

export interface CreateInstance {
  definitionId?: string;
  definitionCode?: string;
  data?: Record<string, unknown>;
  prefill?: Record<string, unknown>;
  context?: Record<string, unknown>;
  recipient?: Record<string, unknown>;
}

/** A DRAFT instance pinned to the definition's published version. */
export async function createInstance(deps: DefinitionDeps, actor: Actor, input: CreateInstance): Promise<FormInstanceRow> {
  const definition = input.definitionId
    ? await getDefinition(deps, cap, actor, input.definitionId)
    : await getDefinitionByCode(deps, cap, actor, input.definitionCode!);
  if (definition.status !== 'PUBLISHED' || definition.publishedVersion == null) {
    throw new AppError('form-not-published', `Form definition ${definition.code} has no published version (status ${definition.status})`);
  }
  // Processing keys are the platform's: a caller's context cannot pre-set them.
  const { processStartStatus: _s, processInstanceId: _p, ...context } = input.context ?? {};
  return insertFormInstance(deps.db, {
    tenantId: actor.tenantId,
    token: newInstanceToken(),
    definitionId: definition.id,
    definitionCode: definition.code,
    definitionVersion: definition.publishedVersion,
    state: 'DRAFT',
    data: input.data ?? {},
    prefill: input.prefill ?? {},
    recipient: input.recipient ?? {},
    context,
    origin: 'API',
    createdBy: actor.userId,
  });
}

export async function getInstance(deps: DefinitionDeps, actor: Actor, id: string): Promise<FormInstanceRow> {
  const row = await findFormInstance(deps.db, { tenantId: actor.tenantId, id });
  if (!row) throw instanceNotFound();
  return row;
}

export const listInstances = (
  deps: DefinitionDeps,
  actor: Actor,
  p: { definitionCode?: string; state?: FormInstanceState; before: KeysetPosition | null; limit: number },
) => listFormInstances(deps.db, { tenantId: actor.tenantId, ...p });

const stateConflict = (row: FormInstanceRow, step: string) =>
  new AppError('instance-state-conflict', `A ${row.state} form instance cannot be ${step}`, { state: row.state });

/** Saves data of an open instance at the caller's `version` (409 `version-conflict` when it moved). */
export async function saveInstanceData(deps: DefinitionDeps, actor: Actor, id: string, p: { data: Record<string, unknown>; version: number }) {
  const row = await getInstance(deps, actor, id);
  if (!isEditable(row.state)) throw stateConflict(row, 'edited');
  const updated = await updateFormInstance(deps.db, { tenantId: actor.tenantId, id, version: p.version }, { data: p.data });
  if (!updated) throw new AppError('version-conflict', 'The form instance changed since it was read; reload and retry');
  return updated;
}

/**
 * Validates the data (the body's, else the stored) against the pinned version, then SUBMITTED
 * and the intake start row in one transaction, under the row lock (two submits: one wins).
 */
export async function submitInstance(deps: DefinitionDeps, actor: Actor, id: string, p: { data?: Record<string, unknown> }) {
  return deps.db.transaction(async (tx) => {
    const row = await findFormInstance(tx, { tenantId: actor.tenantId, id, forUpdate: true });
    if (!row) throw instanceNotFound();
    if (!isSubmittable(row.state)) throw stateConflict(row, 'submitted');
    const version = await cap.queries.findVersion(tx, { tenantId: actor.tenantId, definitionId: row.definitionId, version: row.definitionVersion });
    if (!version) throw instanceNotFound();
    const result = validateSubmission(repairFormSchema(version.schema), p.data ?? row.data);
    if (!result.ok) {
      const errors = submissionErrors(result.errors);
      throw new AppError('validation-failed', `Invalid submission: ${errors[0]!.path}: ${errors[0]!.message}`, { errors });
    }
    return markInstanceSubmitted(tx, row, result.data);
  });
}

export async function cancelInstance(deps: DefinitionDeps, actor: Actor, id: string) {
  return deps.db.transaction(async (tx) => {
    const row = await findFormInstance(tx, { tenantId: actor.tenantId, id, forUpdate: true });
    if (!row) throw instanceNotFound();
    if (row.state === 'CANCELLED') return row;
    if (!isCancellable(row.state)) throw stateConflict(row, 'cancelled');
    return (await updateFormInstance(tx, { tenantId: actor.tenantId, id, version: row.version }, { state: 'CANCELLED' }))!;
  });
}

/** The spec's FormSubmissionOutbox view of an instance's intake start row (null before submission). */
export async function submissionOutboxOf(db: DbOrTx, row: FormInstanceRow) {
  const outbox = await getOutboxRow(db, FORMS_CAPABILITY, row.tenantId, row.id);
  if (!outbox) return null;
  const status: 'QUEUED' | 'PUBLISHED' | 'FAILED' = outbox.state === 'QUEUED' ? 'QUEUED' : outbox.state === 'FAILED' ? 'FAILED' : 'PUBLISHED';
  return { status, outboxState: outbox.state, retryCount: outbox.retryCount, processInstanceId: outbox.processInstanceId };
}
