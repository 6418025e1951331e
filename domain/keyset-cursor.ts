// The opaque cursor of every newest-first or oldest-first list: the (createdAt, id) of the last row
// of a page. The timestamp travels as PostgreSQL writes it, to the microsecond: rows stamped by
// now() differ below the millisecond, and a cursor rounded to a JavaScript Date skips or repeats them.
import { badRequest } from './errors';

/** A position in a (createdAt, id) keyset; `createdAt` is ISO-8601 UTC with up to six fractional digits. */
export interface KeysetPosition {
  createdAt: string;
  id: string;
}

export function encodeKeysetCursor(position: KeysetPosition): string {
  return Buffer.from(`${position.createdAt}|${position.id}`, 'utf8').toString('base64url');
}

// Three digits: a cursor issued before microseconds were kept (still honoured, so a client paging
// through a deploy does not fail). Six: PostgreSQL's own precision.
const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.(\d{3}|\d{6})Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeKeysetCursor(cursor: string): KeysetPosition {
  const [at, id, extra] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !AT.test(at) || Number.isNaN(new Date(at).getTime()) || !id || !UUID.test(id) || extra !== undefined) {
    throw badRequest('invalid-cursor', 'The cursor is not a nextCursor this list issued');
  }
  return { createdAt: at, id };
}
