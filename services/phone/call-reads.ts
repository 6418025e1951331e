import type { DbOrTx } from '../../db/client';
import { getPhoneCall, listPhoneCalls, type PhoneCallRow } from '../../db/queries/phone';
import { notFound } from '../../domain/errors';
import { decodeKeysetCursor, encodeKeysetCursor } from '../../domain/keyset-cursor';

/** One call of the tenant; 404 `phone-call-not-found`. */
export async function getCall(db: DbOrTx, { tenantId, id }: { tenantId: string; id: string }): Promise<PhoneCallRow> {
  const row = await getPhoneCall(db, tenantId, id);
  if (!row) throw notFound('Phone call', 'phone-call-not-found');
  return row;
}

export interface CallListRequest {
  tenantId: string;
  status?: PhoneCallRow['status'] | undefined;
  direction?: PhoneCallRow['direction'] | undefined;
  /** Page size, capped by the caller. */
  limit: number;
  /** A nextCursor of an earlier page; 400 `invalid-cursor` when it is not one. */
  cursor?: string | undefined;
}

/** One page of calls, newest first; nextCursor is null on the last page. */
export async function listCalls(db: DbOrTx, { tenantId, status, direction, limit, cursor }: CallListRequest) {
  // One row more than the page tells whether another page follows.
  const rows = await listPhoneCalls(db, tenantId, {
    status,
    direction,
    limit: limit + 1,
    after: cursor ? decodeKeysetCursor(cursor) : undefined,
  });
  const items = rows.slice(0, limit);
  const last = items[items.length - 1];
  return { items, limit, nextCursor: rows.length > limit && last ? encodeKeysetCursor({ createdAt: last.cursorAt, id: last.id }) : null };
}
