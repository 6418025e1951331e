// Administrative operations on a form instance (spec: retry process, set state, mark processed;
// docs/forms.md "Instance operations"). Each runs under the instance's row lock, so two at once on
// one instance run one after the other and the second sees the first's outcome.
import type { Tx } from '../../db/client';
import { getOutboxRow, workflowIdFor } from '../../db/outbox';
import { findFormInstance, updateLockedFormInstance, type FormInstanceRow } from '../../db/queries/form-instances';
import { requeueIntakeStart } from '../../db/queries/intake-outbox';
import { AppError, conflict, notFound } from '../../domain/errors';
import { mayMoveTo } from '../../domain/forms/admin-moves';
import { FORMS_CAPABILITY } from '../../domain/forms/intake-process';
import type { FormInstanceState } from '../../domain/forms/instance-states';
import type { Actor, DefinitionDeps } from '../definitions/capability';

async function locked<T>(deps: DefinitionDeps, actor: Actor, id: string, step: (tx: Tx, row: FormInstanceRow) => Promise<T>) {
  return deps.db.transaction(async (tx) => {
    const row = await findFormInstance(tx, { tenantId: actor.tenantId, id, forUpdate: true });
    if (!row) throw notFound('Form instance', 'form-instance-not-found');
    return step(tx, row);
  });
}

const updateInstance = (
  tx: Tx,
  row: FormInstanceRow,
  set: { state?: FormInstanceState; context?: Record<string, unknown>; expiresAt?: Date | null },
): Promise<FormInstanceRow> => updateLockedFormInstance(tx, { tenantId: row.tenantId, id: row.id, ...set });

const stateConflict = (row: FormInstanceRow, detail: string) => new AppError('instance-state-conflict', detail, { state: row.state });

/**
 * Queues the intake again. An outbox row that is FAILED or UNDELIVERABLE (the process never
 * started) is QUEUED again under its workflow id. An intake that ran and recorded a failure
 * (processStartStatus FAILED, row CLOSED) gets a fresh workflow id `<id>:retry-<n>`, since Temporal
 * does not reuse a finished workflow's id. Anything else is 409 `process-not-retryable`.
 */
export function retryProcess(deps: DefinitionDeps, actor: Actor, id: string) {
  return locked(deps, actor, id, async (tx, row) => {
    const start = await getOutboxRow(tx, FORMS_CAPABILITY, row.tenantId, row.id);
    const notRetryable = () =>
      conflict('process-not-retryable', `The intake of this ${row.state} form instance did not fail (outbox ${start?.state ?? 'absent'}); nothing to retry`);
    if (!start || row.state !== 'SUBMITTED') throw notRetryable();
    const retries = Number(row.context.processRetries ?? 0);
    let workflowId: string;
    if (start.state === 'FAILED' || start.state === 'UNDELIVERABLE') workflowId = start.workflowId;
    else if (start.state === 'CLOSED' && row.context.processStartStatus === 'FAILED') {
      workflowId = `${workflowIdFor(FORMS_CAPABILITY, row.tenantId, row.id)}:retry-${retries + 1}`;
    } else throw notRetryable();
    await requeueIntakeStart(tx, { id: start.id, workflowId, capability: FORMS_CAPABILITY });
    return updateInstance(tx, row, {
      context: { processStartStatus: 'QUEUED', processError: null, processRetries: workflowId === start.workflowId ? retries : retries + 1 },
    });
  });
}

/** An administrative move along ADMIN_MOVES; the same state again is nothing to do. */
export function setInstanceState(deps: DefinitionDeps, actor: Actor, id: string, to: FormInstanceState) {
  return locked(deps, actor, id, async (tx, row) => {
    if (row.state === to) return row;
    if (!mayMoveTo(row.state, to)) throw stateConflict(row, `A ${row.state} form instance cannot be moved to ${to} by hand`);
    return updateInstance(tx, row, {
      state: to,
      // Reopened as DRAFT: an expiry that passed would otherwise expire it again.
      ...(to === 'DRAFT' ? { expiresAt: null } : {}),
      context: { stateSetBy: actor.userId, stateSetAt: new Date().toISOString() },
    });
  });
}

/** SUBMITTED → PROCESSED by hand: recorded as processStartStatus PROCESSED with who and when. */
export function markProcessed(deps: DefinitionDeps, actor: Actor, id: string) {
  return locked(deps, actor, id, async (tx, row) => {
    if (row.state !== 'SUBMITTED') throw stateConflict(row, `Only a SUBMITTED form instance can be marked processed (it is ${row.state})`);
    return updateInstance(tx, row, {
      state: 'PROCESSED',
      context: { processStartStatus: 'PROCESSED', processedBy: actor.userId, processedAt: new Date().toISOString() },
    });
  });
}
