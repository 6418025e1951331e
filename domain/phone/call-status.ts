import { classifyEndedReason } from './ended-reason.js';

/** Our call statuses (spec, "States: Phone call"). ENDED and FAILED are terminal. */
export const CALL_STATUSES = ['QUEUED', 'RINGING', 'IN_PROGRESS', 'ENDED', 'FAILED'] as const;
export type CallStatus = (typeof CALL_STATUSES)[number];

export function isCallStatus(value: unknown): value is CallStatus {
  return typeof value === 'string' && (CALL_STATUSES as readonly string[]).includes(value);
}

/** ENDED and FAILED: the provider-side lifecycle is over (SCHEDULED, CANCELLED and REFUSED never reached it). */
export function isTerminal(status: string): boolean {
  return status === 'ENDED' || status === 'FAILED';
}

/**
 * Provider status → our status. The provider also documents `not-found` and
 * `deletion-failed` (and may add more); those say nothing about the call's progress,
 * so they map to null like any unknown value and leave the status unchanged.
 */
const PROVIDER_STATUS_MAP: Readonly<Record<string, CallStatus>> = {
  scheduled: 'QUEUED',
  queued: 'QUEUED',
  ringing: 'RINGING',
  'in-progress': 'IN_PROGRESS',
  forwarding: 'IN_PROGRESS',
  ended: 'ENDED',
};

export function mapProviderStatus(providerStatus: unknown): CallStatus | null {
  if (typeof providerStatus !== 'string') return null;
  return Object.hasOwn(PROVIDER_STATUS_MAP, providerStatus)
    ? (PROVIDER_STATUS_MAP[providerStatus] ?? null)
    : null;
}

/**
 * Ordering rule: a call only moves forward along QUEUED < RINGING < IN_PROGRESS < terminal.
 * Webhooks may arrive late, twice or out of order (the provider gives no ordering
 * guarantee), so an observation that is not strictly ahead of what we already know is
 * stale and ignored. With this rule the final status does not depend on delivery order.
 */
const RANK: Readonly<Record<CallStatus, number>> = {
  QUEUED: 0,
  RINGING: 1,
  IN_PROGRESS: 2,
  ENDED: 3,
  FAILED: 3,
};

/**
 * Next status for a `status-update` webhook, or null for "no change".
 * Also usable for a provider snapshot (GET /call) during reconciliation.
 * When the provider says `ended` and gives an endedReason, the reason decides
 * ENDED vs FAILED so that status-update and end-of-call-report agree.
 */
export function nextStatusFromStatusUpdate(
  current: CallStatus,
  providerStatus: unknown,
  endedReason?: string | null,
): CallStatus | null {
  if (isTerminal(current)) return null;
  const mapped = mapProviderStatus(providerStatus);
  if (mapped === null) return null;
  const next = mapped === 'ENDED' && endedReason ? classifyEndedReason(endedReason) : mapped;
  return RANK[next] > RANK[current] ? next : null;
}

/**
 * Next status for an `end-of-call-report`, or null for "no change".
 * A non-terminal call settles to the classification. An ENDED call may still become
 * FAILED: a bare `ended` status-update can precede the report that names a fault, and
 * the reverse order would have produced FAILED. FAILED is never changed.
 */
export function nextStatusFromEndOfCallReport(
  current: CallStatus,
  endedReason: string | null | undefined,
): CallStatus | null {
  const outcome = classifyEndedReason(endedReason);
  if (current === 'FAILED') return null;
  if (current === 'ENDED') return outcome === 'FAILED' ? 'FAILED' : null;
  return outcome;
}
