// The correlator's step (docs/forms.md "Event rail"): one claimed batch of form events, each turned
// into platform outbox rows in the batch's transaction, so an event is SENT exactly when its
// deliveries are durable, and the outbox's dispatcher does the talking to Temporal with its retries.
import type { Logger } from 'pino';
import type { Db, Tx } from '../../db/client';
import { enqueueSignal, enqueueStart } from '../../db/outbox';
import { claimDueEvents, listEventSubscribers, markEventAttemptFailed, markEventDelivered, type FormEventRow } from '../../db/queries/form-events';
import { findFormInstance } from '../../db/queries/form-instances';
import { subscribedProcess, type FormEventSubscriberInput } from '../../domain/forms/event-rail';
import { FormInstanceEventSignal, WAITING_WORKFLOW_KEY, type FormInstanceEvent } from '../../domain/forms/instance-events';
import { FORMS_CAPABILITY } from '../../domain/forms/intake-process';

export interface EventRailOptions {
  batchSize: number;
  maxAttempts: number;
  backoffMs: number;
}

/** drizzle wraps a refused statement in "Failed query: <sql> params: ..."; the database's own reason is the cause. */
const reasonOf = (err: unknown) => (err instanceof Error ? (err.cause instanceof Error ? err.cause.message : err.message) : String(err));

const signalOf = (row: FormEventRow): FormInstanceEvent => ({
  eventId: row.id,
  instanceId: row.instanceId,
  formCode: row.formCode,
  eventType: row.eventType as FormInstanceEvent['eventType'],
  state: row.payloadJson.state,
  at: row.payloadJson.at,
});

/** Enqueues one event's deliveries; answers how many outbox rows it wrote or found already written. */
async function enqueueDeliveries(tx: Tx, row: FormEventRow): Promise<number> {
  const event = signalOf(row);
  let deliveries = 0;
  for (const sub of await listEventSubscribers(tx, { tenantId: row.tenantId, formCode: row.formCode, eventType: row.eventType })) {
    const input: FormEventSubscriberInput = {
      tenantId: row.tenantId,
      subscriptionId: sub.id,
      event: { ...event, previousState: row.payloadJson.previousState, definitionVersion: row.payloadJson.definitionVersion },
    };
    await enqueueStart(tx, subscribedProcess(sub.workflowType), input);
    deliveries++;
  }
  const instance = await findFormInstance(tx, { tenantId: row.tenantId, id: row.instanceId });
  const waiting = instance?.context[WAITING_WORKFLOW_KEY];
  if (typeof waiting === 'string' && waiting.length > 0) {
    await enqueueSignal(tx, { capability: FORMS_CAPABILITY, tenantId: row.tenantId, businessKey: row.instanceId, workflowId: waiting }, FormInstanceEventSignal, event);
    deliveries++;
  }
  return deliveries;
}

/**
 * One batch in one transaction. Each event runs in a savepoint: an event whose deliveries cannot be
 * enqueued rolls back alone and counts an attempt; the others commit. Answers how many it handled.
 */
export async function deliverFormEvents(db: Db, logger: Logger, o: EventRailOptions): Promise<number> {
  return db.transaction(async (tx) => {
    const rows = await claimDueEvents(tx, { limit: o.batchSize });
    for (const row of rows) {
      try {
        const deliveries = await tx.transaction((sp) => enqueueDeliveries(sp, row));
        await markEventDelivered(tx, { id: row.id, deliveries });
      } catch (err) {
        const message = reasonOf(err);
        const failed = await markEventAttemptFailed(tx, { row, error: message, maxAttempts: o.maxAttempts, backoffMs: o.backoffMs });
        logger[failed ? 'error' : 'warn'](
          { eventId: row.id, instanceId: row.instanceId, eventType: row.eventType, attempt: row.retryCount + 1, err: message },
          failed ? 'form event FAILED after its last attempt' : 'form event delivery could not be enqueued; will retry',
        );
      }
    }
    return rows.length;
  });
}
