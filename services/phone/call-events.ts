import type { Db, DbOrTx } from '../../db/client';
import { closeOutbox, enqueueStart } from '../../db/outbox';
import {
  advancePhoneCallStatus,
  attachProviderCallId,
  findPhoneCallByProviderId,
  insertPhoneCallIfNew,
  lockPhoneCall,
  storePhoneCallReport,
  updatePhoneCall,
  type MessageCallKey,
  type PhoneCallPatch,
  type PhoneCallRow,
} from '../../db/queries/phone';
import { closeChainCalls } from '../../db/queries/phone-chain';
import {
  CALL_STATUSES,
  isCallStatus,
  isTerminal,
  nextStatusFromEndOfCallReport,
  nextStatusFromStatusUpdate,
  type CallStatus,
} from '../../domain/phone/call-status';
import { PHONE_CAPABILITY, PhoneCallProcess } from '../../domain/phone/call-process';
import type { EndOfCallReportFields } from '../../domain/phone/webhook-messages';
import type { VapiCall } from '../../integrations/vapi/client';

type JsonMap = Record<string, unknown>;

/** What one event did to its call; `call` is null when the call is not ours (untracked) or, for a status-update, nothing changed. */
export interface CallEventResult {
  call: PhoneCallRow | null;
  changed: boolean;
}

const asDate = (value: string | null | undefined): Date | null => {
  if (!value) return null;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? null : d;
};

/** Status-dependent stamps: the first IN_PROGRESS starts the clock, a terminal status stops it. */
function stamps(row: PhoneCallRow, next: CallStatus, now: Date): PhoneCallPatch {
  const patch: PhoneCallPatch = { status: next };
  if (next === 'IN_PROGRESS' && !row.startedAt) patch.startedAt = now;
  if (isTerminal(next) && !row.endedAt) patch.endedAt = now;
  return patch;
}

async function apply(tx: DbOrTx, row: PhoneCallRow, patch: PhoneCallPatch): Promise<CallEventResult> {
  // The row is locked (FOR UPDATE), so the version cannot have moved.
  return { call: (await updatePhoneCall(tx, row, patch))!, changed: true };
}

/** The statuses a message may advance a call from, and the one status it moves them to. */
interface StatusPlan {
  to: CallStatus | null;
  from: CallStatus[];
}

/**
 * A status rule as one conditional UPDATE: derived by asking the domain rule about every current
 * status. The webhook rules name their target whatever the current status is; a rule that did
 * not could not be one statement, so it fails loudly here.
 */
function planStatusMove(next: (current: CallStatus) => CallStatus | null): StatusPlan {
  let to: CallStatus | null = null;
  const from: CallStatus[] = [];
  for (const current of CALL_STATUSES) {
    const target = next(current);
    if (target === null) continue;
    if (to !== null && target !== to) throw new Error(`status rule moves calls to both ${to} and ${target}`);
    to = target;
    from.push(current);
  }
  return { to, from };
}

export const planStatusUpdate = (providerStatus: string, endedReason: string | null) =>
  planStatusMove((current) => nextStatusFromStatusUpdate(current, providerStatus, endedReason));

/**
 * Applies a plan in one conditional UPDATE: a stale, unknown or redelivered status costs one
 * statement. A move that ends the call writes its PhoneCallEnded outbox row in that same
 * statement (db/queries/phone.ts), so the signal commits with the change and cannot be lost.
 * `call` is null when nothing changed, unless the plan was terminal.
 */
async function advanceStatus(
  db: Db,
  key: MessageCallKey,
  plan: StatusPlan,
  endedReason: string | null,
  now: Date,
): Promise<CallEventResult> {
  const to = plan.to;
  if (to !== null) {
    const move = { from: plan.from, to, at: now, endedReason };
    const moved = await advancePhoneCallStatus(db, key, move);
    if (moved) return { call: moved, changed: true };
  }
  const terminalMessage = plan.to !== null && isTerminal(plan.to);
  return { call: terminalMessage ? await findPhoneCallByProviderId(db, key.providerCallId) : null, changed: false };
}

/** `status-update`: forward-only mapping; untracked and terminal calls are left alone. */
export async function applyStatusUpdate(
  db: Db,
  e: MessageCallKey & { status: string; endedReason: string | null },
  now = new Date(),
): Promise<CallEventResult> {
  const plan = planStatusUpdate(e.status, e.endedReason);
  // A message that moves nothing (queued, scheduled) still records the provider id on an
  // in-flight placement it overtook; every other one records it in its own statement.
  if (plan.to === null && e.platformCallId) await attachProviderCallId(db, e.platformCallId, e.providerCallId);
  return advanceStatus(db, e, plan, e.endedReason, now);
}

export interface EndOfCallReport extends EndOfCallReportFields, MessageCallKey {
  raw: JsonMap;
}

/**
 * `end-of-call-report`: stores the report once (a redelivery changes nothing; a reconciliation
 * snapshot is replaced by the real report) and settles the status by the endedReason, in one
 * statement that also writes the call's PhoneCallEnded outbox row (spec, Events 3; delivered at
 * least once, the process keeps the first). A call whose report is stored already may only still
 * be refined ENDED → FAILED.
 */
export async function applyEndOfCallReport(db: Db, r: EndOfCallReport, now = new Date()): Promise<CallEventResult> {
  const plan = planStatusMove((current) => nextStatusFromEndOfCallReport(current, r.endedReason));
  const stored = await storePhoneCallReport(db, r, {
    // The classification is ENDED or FAILED, and every non-terminal call moves to it.
    move: { from: plan.from, to: plan.to!, at: now },
    endedReason: r.endedReason,
    transcript: r.transcript,
    recordingUrl: r.recordingUrl,
    summary: r.summary,
    cost: r.cost,
    analysis: r.analysis,
    endPayload: r.raw,
    startedAt: asDate(r.startedAt),
    endedAt: asDate(r.endedAt),
  });
  if (stored) return { call: stored, changed: true };
  return advanceStatus(db, r, plan, null, now);
}

export type ProviderAnswer =
  | { kind: 'call'; call: VapiCall }
  | { kind: 'not-found' }
  | { kind: 'no-provider-id' };

/**
 * Reconciliation: settle a call from the provider's own record of it. An ended call is
 * classified like an end-of-call-report; a running one only moves forward; a call the provider
 * does not know (or never got an id) is FAILED.
 */
export async function applyProviderAnswer(
  db: Db,
  tenantId: string,
  callId: string,
  answer: ProviderAnswer,
  now = new Date(),
): Promise<CallEventResult> {
  return db.transaction(async (tx) => {
    const row = await lockPhoneCall(tx, tenantId, callId);
    if (!row) return { call: null, changed: false };
    // SCHEDULED, CANCELLED and REFUSED calls never reached the provider: nothing to settle.
    if (isTerminal(row.status) || !isCallStatus(row.status)) return { call: row, changed: false };
    if (answer.kind !== 'call') {
      const errorMessage =
        answer.kind === 'not-found'
          ? 'The provider has no record of this call'
          : 'Placement was interrupted before the provider accepted the call';
      return apply(tx, row, { ...stamps(row, 'FAILED', now), errorMessage });
    }
    const snap = answer.call;
    const next = nextStatusFromStatusUpdate(row.status, snap.status, snap.endedReason);
    if (next === null) return { call: row, changed: false };
    const patch = stamps(row, next, now);
    if (isTerminal(next) && row.endSource === null) {
      Object.assign(patch, {
        endedReason: snap.endedReason,
        transcript: snap.transcript,
        recordingUrl: snap.recordingUrl,
        summary: snap.summary,
        cost: snap.cost,
        analysis: snap.analysis,
        endPayload: snap.raw,
        endSource: 'reconciliation' as const,
        startedAt: asDate(snap.startedAt) ?? row.startedAt,
        endedAt: asDate(snap.endedAt) ?? patch.endedAt,
      });
    }
    return apply(tx, row, patch);
  });
}

export interface InboundCall {
  tenantId: string;
  providerCallId: string;
  phoneNumberId: string | null;
  assistantId: string;
  customerNumber: string | null;
}

/** assistant-request: an INBOUND RINGING call plus its process, once per provider call id. */
export async function recordInboundCall(db: Db, c: InboundCall, id: string): Promise<{ call: PhoneCallRow; created: boolean }> {
  return db.transaction(async (tx) => {
    const row = await insertPhoneCallIfNew(tx, {
      id,
      tenantId: c.tenantId,
      direction: 'INBOUND',
      status: 'RINGING',
      providerCallId: c.providerCallId,
      phoneNumberId: c.phoneNumberId,
      assistantId: c.assistantId,
      customerNumber: c.customerNumber,
      businessKey: id,
      initiatedBy: 'provider',
    });
    if (!row) {
      // The conflicting row is committed (ON CONFLICT waited for it): a plain read sees it.
      const existing = (await findPhoneCallByProviderId(tx, c.providerCallId))!;
      return { call: existing, created: false };
    }
    await enqueueCallProcess(tx, c.tenantId, id);
    return { call: row, created: true };
  });
}

/** The call's process: its outbox row (business key = call id), in the caller's transaction. */
export async function enqueueCallProcess(tx: DbOrTx, tenantId: string, callId: string) {
  await enqueueStart(tx, PhoneCallProcess, { tenantId, callId });
}

/** The process started: stamps its run id (first start only) and answers the call's state. */
export async function openCallProcess(db: Db, tenantId: string, callId: string, runId: string) {
  return db.transaction(async (tx) => {
    const row = await lockPhoneCall(tx, tenantId, callId);
    if (!row) return null;
    if (row.processStatus !== 'PENDING') return row;
    return (await updatePhoneCall(tx, row, { processStatus: 'ACTIVE', processInstanceId: runId }))!;
  });
}

/** The process recorded the outcome: processStatus CLOSED and the outbox row CLOSED, together. */
export async function closeCallProcess(db: Db, tenantId: string, callId: string) {
  return db.transaction(async (tx) => {
    const row = await lockPhoneCall(tx, tenantId, callId);
    if (row && row.processStatus !== 'CLOSED') await updatePhoneCall(tx, row, { processStatus: 'CLOSED' });
    // The redial attempts the process placed are closed with it.
    await closeChainCalls(tx, { tenantId, firstCallId: callId });
    await closeOutbox(tx, PHONE_CAPABILITY, tenantId, callId);
    return row;
  });
}
