// The value lists of a phone call's enum-like fields: the API's schemas and the table's columns
// both name them, so they live here, below both.

export const CALL_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
/**
 * The provider-driven lifecycle (domain/phone/call-status.ts) plus the states a call has before or
 * instead of a provider request: SCHEDULED (waiting for its calling window or its redial
 * backoff), CANCELLED (a scheduled call cancelled), REFUSED (its number is on the do-not-call list).
 */
export const PHONE_CALL_STATUSES = ['SCHEDULED', 'QUEUED', 'RINGING', 'IN_PROGRESS', 'ENDED', 'FAILED', 'CANCELLED', 'REFUSED'] as const;
export type PhoneCallStatus = (typeof PHONE_CALL_STATUSES)[number];
/** PENDING: outbox row waits for the dispatcher; ACTIVE: the call process runs; CLOSED: it recorded the outcome. */
export const PROCESS_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED'] as const;
