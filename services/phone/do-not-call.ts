// The tenant's do-not-call list: kept by people (the API), by the provider's end of a call whose
// endedReason says the callee asked not to be called, and by the assistant's tool call.
import type { Logger } from 'pino';
import type { Db, DbOrTx } from '../../db/client';
import { getPhoneCall } from '../../db/queries/phone';
import { deleteDoNotCall, getDoNotCall, insertDoNotCall, listDoNotCall, type DoNotCallRow } from '../../db/queries/phone-policies';
import { AppError, badRequest, notFound } from '../../domain/errors';
import { normalisePhoneNumber } from '../../domain/phone/phone-number-normalise';
import type { Settings } from '../../domain/settings';
import { applyEndOfCallReport, type EndOfCallReport } from './call-events';

type Source = DoNotCallRow['source'];

function normalised(number: string): string {
  const e164 = normalisePhoneNumber(number);
  if (!e164) {
    throw badRequest('invalid-phone-number', 'The number must be a valid phone number in international form, such as +14155550123');
  }
  return e164;
}

/** PUT: adds the number (normalised to E.164); `created` is false when it was listed already. */
export async function addToDoNotCall(db: DbOrTx, p: { tenantId: string; number: string; addedBy: string }) {
  return insertDoNotCall(db, { tenantId: p.tenantId, number: normalised(p.number), source: 'api', callId: null, addedBy: p.addedBy });
}

export async function getDoNotCallEntry(db: DbOrTx, p: { tenantId: string; number: string }) {
  const entry = await getDoNotCall(db, { tenantId: p.tenantId, number: normalised(p.number) });
  if (!entry) throw notFound('The do-not-call entry', 'do-not-call-entry-not-found');
  return entry;
}

export async function removeFromDoNotCall(db: DbOrTx, p: { tenantId: string; number: string }) {
  if (!(await deleteDoNotCall(db, { tenantId: p.tenantId, number: normalised(p.number) }))) {
    throw notFound('The do-not-call entry', 'do-not-call-entry-not-found');
  }
}

const encodeCursor = (number: string) => Buffer.from(number, 'utf8').toString('base64url');

function decodeCursor(cursor: string): string {
  const number = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!/^\+[1-9]\d{1,14}$/.test(number) || encodeCursor(number) !== cursor) {
    throw badRequest('invalid-cursor', 'The cursor is not a nextCursor this list issued');
  }
  return number;
}

/** In number order, keyset-paged on the number. */
export async function listDoNotCallEntries(db: DbOrTx, p: { tenantId: string; limit: number; cursor?: string | undefined }) {
  const after = p.cursor === undefined ? undefined : decodeCursor(p.cursor);
  const rows = await listDoNotCall(db, { tenantId: p.tenantId, limit: p.limit + 1, after });
  const items = rows.slice(0, p.limit);
  return { items, limit: p.limit, nextCursor: rows.length > p.limit ? encodeCursor(items[items.length - 1]!.number) : null };
}

/** Whether placement must refuse this (E.164) number. */
export async function isOnDoNotCall(db: DbOrTx, p: { tenantId: string; customerNumber: string }) {
  const e164 = normalisePhoneNumber(p.customerNumber) ?? p.customerNumber;
  return (await getDoNotCall(db, { tenantId: p.tenantId, number: e164 })) !== null;
}

/** The refusal placement answers with, naming the REFUSED call it recorded. */
export const onDoNotCall = (callId: string) =>
  new AppError('number-on-do-not-call', "The customer number is on the tenant's do-not-call list; nobody was dialled", { callId });

/**
 * The callee of a call asked not to be called (its endedReason, or the assistant's tool call):
 * its customer number joins the list. Null when the call has no usable number.
 */
export async function addCalleeToDoNotCall(db: DbOrTx, p: { tenantId: string; callId: string; source: Exclude<Source, 'api'> }) {
  const call = await getPhoneCall(db, p.tenantId, p.callId);
  const e164 = call?.customerNumber ? normalisePhoneNumber(call.customerNumber) : null;
  if (!call || !e164) return null;
  return insertDoNotCall(db, { tenantId: p.tenantId, number: e164, source: p.source, callId: call.id, addedBy: p.source === 'ended-reason' ? 'provider' : 'assistant' });
}

/**
 * The end-of-call-report, stored as call-events does; when its endedReason is one that says the
 * callee asked not to be called (setting phone.do-not-call-ended-reasons), the number joins the list.
 */
export async function settleEndOfCallReport(deps: { db: Db; settings: Settings; log: Logger }, report: EndOfCallReport) {
  const result = await applyEndOfCallReport(deps.db, report);
  const call = result.call;
  if (result.changed && call?.endedReason && deps.settings['phone.do-not-call-ended-reasons'].includes(call.endedReason)) {
    const added = await addCalleeToDoNotCall(deps.db, { tenantId: call.tenantId, callId: call.id, source: 'ended-reason' });
    deps.log.info({ tenantId: call.tenantId, callId: call.id, added: added?.created ?? false }, 'callee asked not to be called: number on the do-not-call list');
  }
  return result;
}
