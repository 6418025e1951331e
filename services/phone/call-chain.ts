// The steps of a call's process before and between provider requests: dialling a SCHEDULED call
// when its window opens, scheduling the next attempt of a redial policy, and cancelling.
import { randomUUID } from 'node:crypto';
import type { Db, DbOrTx } from '../../db/client';
import { enqueueSignal } from '../../db/outbox';
import { getPhoneCall, lockPhoneCall, updatePhoneCall } from '../../db/queries/phone';
import { cancelScheduledInChain, insertAttemptOnce } from '../../db/queries/phone-chain';
import { AppError, conflict, notFound } from '../../domain/errors';
import type { PhoneCallStatus } from '../../domain/phone/call-fields';
import { PhoneCallProcess } from '../../domain/phone/call-process';
import { redialFollows } from '../../domain/phone/redial';
import { nextCallingOpening } from './calling-window';
import { dialQueuedCall, type DialDeps } from './dial';
import { isOnDoNotCall } from './do-not-call';
import { resolveProviderKey } from './provider';

export type ScheduledDial =
  | { kind: 'dialled'; status: PhoneCallStatus }
  | { kind: 'rescheduled'; at: number }
  | { kind: 'refused'; status: 'REFUSED' }
  | { kind: 'not-scheduled'; status: PhoneCallStatus };

/** A window that will never open again ends the call: FAILED with the reason, not a process stuck for ever. */
async function openingOrNever(
  db: DbOrTx,
  p: { tenantId: string; callingCalendarKey: string; calleeLocationCode: string | null; at: Date },
): Promise<Date | null | 'never'> {
  try {
    return await nextCallingOpening(db, p);
  } catch (err) {
    if (err instanceof AppError && (err.code === 'calling-window-never-opens' || err.code === 'unknown-process-calendar' || err.code === 'unknown-callee-location')) return 'never';
    throw err;
  }
}

/**
 * A SCHEDULED call is due: checked again under its row lock (it may have been cancelled, its
 * number listed, its calendar changed since it was scheduled), then QUEUED and dialled.
 */
export async function dialScheduledCall(deps: DialDeps, p: { tenantId: string; callId: string }): Promise<ScheduledDial> {
  const { db, settings } = deps;
  const key = await resolveProviderKey(db, settings, p.tenantId);
  const step = await db.transaction(async (tx): Promise<ScheduledDial | { kind: 'queued'; row: NonNullable<Awaited<ReturnType<typeof lockPhoneCall>>> }> => {
    const row = await lockPhoneCall(tx, p.tenantId, p.callId);
    if (!row) throw notFound('The phone call', 'phone-call-not-found');
    if (row.status !== 'SCHEDULED') return { kind: 'not-scheduled', status: row.status };
    const failed = (errorMessage: string) => updatePhoneCall(tx, row, { status: 'FAILED', errorMessage, endedAt: new Date() });
    if (await isOnDoNotCall(tx, { tenantId: p.tenantId, customerNumber: row.customerNumber! })) {
      await updatePhoneCall(tx, row, { status: 'REFUSED', errorMessage: 'The customer number is on the do-not-call list', endedAt: new Date() });
      return { kind: 'refused', status: 'REFUSED' };
    }
    if (row.callingCalendarKey) {
      const opensAt = await openingOrNever(tx, { tenantId: p.tenantId, callingCalendarKey: row.callingCalendarKey, calleeLocationCode: row.calleeLocationCode, at: new Date() });
      if (opensAt === 'never') {
        await failed('The calling calendar has no open hours ahead');
        return { kind: 'dialled', status: 'FAILED' };
      }
      if (opensAt) {
        await updatePhoneCall(tx, row, { scheduledFor: opensAt });
        return { kind: 'rescheduled', at: opensAt.getTime() };
      }
    }
    if (!key) {
      await failed('No voice provider key: the tenant connected none and no global fallback is set');
      return { kind: 'dialled', status: 'FAILED' };
    }
    return { kind: 'queued', row: (await updatePhoneCall(tx, row, { status: 'QUEUED' }))! };
  });
  if (step.kind !== 'queued') return step;
  const call = await dialQueuedCall(deps, step.row, key!.apiKey);
  return { kind: 'dialled', status: call.status };
}

export interface ScheduledAttempt {
  callId: string;
  attempt: number;
  scheduledFor: number;
}

/**
 * The attempt `callId` ended: when the redial rule follows it with another, that attempt is
 * written SCHEDULED (after the backoff, at the window's next opening); null when it does not.
 * A retried step finds the attempt it wrote.
 */
export async function scheduleRedial(db: Db, p: { tenantId: string; callId: string }): Promise<ScheduledAttempt | null> {
  const row = await getPhoneCall(db, p.tenantId, p.callId);
  if (!row || !redialFollows(row)) return null;
  const notBefore = new Date(Date.now() + row.redial!.backoffMinutes * 60_000);
  let scheduledFor = notBefore;
  if (row.callingCalendarKey) {
    const opensAt = await openingOrNever(db, { tenantId: p.tenantId, callingCalendarKey: row.callingCalendarKey, calleeLocationCode: row.calleeLocationCode, at: notBefore });
    if (opensAt === 'never') return null;
    scheduledFor = opensAt ?? notBefore;
  }
  const firstCallId = row.firstCallId ?? row.id;
  const attempt = await insertAttemptOnce(db, {
    id: randomUUID(),
    tenantId: row.tenantId,
    direction: 'OUTBOUND',
    status: 'SCHEDULED',
    phoneNumberId: row.phoneNumberId,
    assistantId: row.assistantId,
    customerNumber: row.customerNumber,
    customerName: row.customerName,
    metadata: row.metadata,
    variableValues: row.variableValues,
    businessKey: firstCallId,
    processInstanceId: row.processInstanceId,
    processStatus: 'ACTIVE',
    initiatedBy: row.initiatedBy,
    callingCalendarKey: row.callingCalendarKey,
    calleeLocationCode: row.calleeLocationCode,
    redial: row.redial,
    firstCallId,
    attempt: row.attempt + 1,
    scheduledFor,
  });
  return { callId: attempt.id, attempt: attempt.attempt, scheduledFor: attempt.scheduledFor!.getTime() };
}

/**
 * POST /api/phone-calls/{id}/cancel: the SCHEDULED call of the chain `id` belongs to (the call
 * itself, or the redial its process scheduled) becomes CANCELLED, and its process is told.
 */
export async function cancelScheduledCall(db: Db, p: { tenantId: string; callId: string }) {
  return db.transaction(async (tx) => {
    const rows = await cancelScheduledInChain(tx, p);
    if (rows.length === 0) {
      if (!(await getPhoneCall(tx, p.tenantId, p.callId))) throw notFound('The phone call', 'phone-call-not-found');
      throw conflict('phone-call-not-scheduled', 'The call is not SCHEDULED: only a call waiting for its window or its redial can be cancelled');
    }
    for (const row of rows) {
      await enqueueSignal(tx, { capability: PhoneCallProcess.capability, tenantId: p.tenantId, businessKey: row.businessKey }, PhoneCallProcess.signals.cancelled, {
        callId: row.id,
      });
    }
    return rows[0]!;
  });
}
