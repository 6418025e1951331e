// The value lists of a phone call's enum-like fields: the API's schemas and the table's columns
// both name them, so they live here, below both.

export const CALL_DIRECTIONS = ['INBOUND', 'OUTBOUND'] as const;
export const PHONE_CALL_STATUSES = ['QUEUED', 'RINGING', 'IN_PROGRESS', 'ENDED', 'FAILED'] as const;
/** PENDING: outbox row waits for the dispatcher; ACTIVE: the call process runs; CLOSED: it recorded the outcome. */
export const PROCESS_STATUSES = ['PENDING', 'ACTIVE', 'CLOSED'] as const;
