import type { Db, DbOrTx } from '../../db/client';
import { closeOutbox, enqueueOutbox } from '../../db/outbox';
import {
  advancePhoneCallStatus,
  findPhoneCallByProviderId,
  insertPhoneCallIfNew,
  lockPhoneCall,
  lockPhoneCallByProviderId,
  updatePhoneCall,
  type PhoneCallPatch,
  type PhoneCallRow,
} from '../../db/queries/phone';
import {
  CALL_STATUSES,
  isTerminal,
  nextStatusFromEndOfCallReport,
  nextStatusFromStatusUpdate,
  type CallStatus,
} from '../../domain/phone/call-status';
import { PHONE_CALL_WORKFLOW, PHONE_CAPABILITY, type PhoneCallProcessInput } from '../../domain/phone/call-process';
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
  if (Object.keys(patch).length === 0) return { call: row, changed: false };
  // The row is locked (FOR UPDATE), so the version cannot have moved.
  return { call: (await updatePhoneCall(tx, row, patch))!, changed: true };
}

/** Concurrent writers of one call: a lost optimistic race re-reads and decides again. */
const MAX_RACES = 20;

/**
 * Webhook writes, optimistic (DESIGN: `update ... where version = $v`): read the call, decide
 * the patch from what was read, write only if nobody wrote in between, else decide again. A
 * no-op (redelivery, stale status) costs one read and no transaction.
 */
async function applyOptimistic(
  db: Db,
  providerCallId: string,
  decide: (row: PhoneCallRow) => PhoneCallPatch | null,
): Promise<CallEventResult> {
  for (let race = 0; race < MAX_RACES; race++) {
    const row = await findPhoneCallByProviderId(db, providerCallId);
    if (!row) return { call: null, changed: false };
    const patch = decide(row);
    if (!patch || Object.keys(patch).length === 0) return { call: row, changed: false };
    const updated = await updatePhoneCall(db, row, patch);
    if (updated) return { call: updated, changed: true };
  }
  throw new Error(`call ${providerCallId}: ${MAX_RACES} concurrent writes in a row; giving up`);
}

/**
 * The statuses a status-update may advance a call from, and where to: derived from the domain
 * rule by asking it about every current status. Null when the target would depend on the
 * current status (not the case for status-updates today; the optimistic path covers it).
 */
export function planStatusUpdate(providerStatus: string, endedReason: string | null) {
  let to: CallStatus | null = null;
  const from: CallStatus[] = [];
  for (const current of CALL_STATUSES) {
    const next = nextStatusFromStatusUpdate(current, providerStatus, endedReason);
    if (next === null) continue;
    if (to !== null && next !== to) return null;
    to = next;
    from.push(current);
  }
  return { to, from };
}

/**
 * `status-update`: forward-only mapping; untracked and terminal calls are left alone. One
 * conditional UPDATE: a stale, unknown or redelivered status costs one statement and no read.
 * `call` is null when nothing changed, unless the message was terminal (the caller may then
 * re-signal an open process).
 */
export async function applyStatusUpdate(
  db: Db,
  e: { providerCallId: string; status: string; endedReason: string | null },
  now = new Date(),
): Promise<CallEventResult> {
  const plan = planStatusUpdate(e.status, e.endedReason);
  if (plan === null) {
    return applyOptimistic(db, e.providerCallId, (row) => {
      const next = nextStatusFromStatusUpdate(row.status, e.status, e.endedReason);
      if (next === null) return null;
      const patch = stamps(row, next, now);
      if (isTerminal(next) && e.endedReason && !row.endedReason) patch.endedReason = e.endedReason;
      return patch;
    });
  }
  if (plan.to !== null) {
    const moved = await advancePhoneCallStatus(db, e.providerCallId, { from: plan.from, to: plan.to, at: now, endedReason: e.endedReason });
    if (moved) return { call: moved, changed: true };
  }
  const terminalMessage = plan.to !== null && isTerminal(plan.to);
  return { call: terminalMessage ? await findPhoneCallByProviderId(db, e.providerCallId) : null, changed: false };
}

export interface EndOfCallReport {
  providerCallId: string;
  endedReason: string | null;
  transcript: string | null;
  recordingUrl: string | null;
  summary: string | null;
  cost: number | null;
  analysis: JsonMap | null;
  startedAt: string | null;
  endedAt: string | null;
  raw: JsonMap;
}

/**
 * `end-of-call-report`: stores the report once (a redelivery changes nothing; a reconciliation
 * snapshot is replaced by the real report) and settles the status by the endedReason.
 */
export async function applyEndOfCallReport(db: Db, r: EndOfCallReport, now = new Date()): Promise<CallEventResult> {
  return applyOptimistic(db, r.providerCallId, (row) => {
    const next = nextStatusFromEndOfCallReport(row.status, r.endedReason);
    const patch: PhoneCallPatch = next ? stamps(row, next, now) : {};
    if (row.endSource !== 'webhook') {
      Object.assign(patch, {
        endedReason: r.endedReason ?? row.endedReason,
        transcript: r.transcript,
        recordingUrl: r.recordingUrl,
        summary: r.summary,
        cost: r.cost,
        analysis: r.analysis,
        endPayload: r.raw,
        endSource: 'webhook' as const,
        startedAt: asDate(r.startedAt) ?? row.startedAt,
        endedAt: asDate(r.endedAt) ?? patch.endedAt ?? row.endedAt ?? now,
      });
    }
    return patch;
  });
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
    if (isTerminal(row.status)) return { call: row, changed: false };
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
      const existing = (await lockPhoneCallByProviderId(tx, c.providerCallId))!;
      return { call: existing, created: false };
    }
    const args: PhoneCallProcessInput[] = [{ tenantId: c.tenantId, callId: id }];
    await enqueueOutbox(tx, {
      capability: PHONE_CAPABILITY,
      tenantId: c.tenantId,
      businessKey: id,
      workflowType: PHONE_CALL_WORKFLOW,
      args,
    });
    return { call: row, created: true };
  });
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
    await closeOutbox(tx, PHONE_CAPABILITY, tenantId, callId);
    return row;
  });
}
