import type { CallCursor } from '../../db/queries/phone';
import { badRequest } from '../../domain/errors';

/**
 * Keyset cursor over (createdAt, id), opaque to clients. Microseconds matter: PostgreSQL keeps
 * them and a JS Date does not, so the cursor carries the row's timestamp as PostgreSQL text.
 */
export function encodeCursor(c: { cursorAt: string; id: string }): string {
  return Buffer.from(`${c.cursorAt}|${c.id}`, 'utf8').toString('base64url');
}

const AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function decodeCursor(cursor: string): CallCursor {
  const text = Buffer.from(cursor, 'base64url').toString('utf8');
  const [at, id] = text.split('|');
  if (!at || !AT.test(at) || Number.isNaN(new Date(at).getTime()) || !id || !UUID.test(id)) {
    throw badRequest('invalid-cursor', 'cursor is not a nextCursor value of this list');
  }
  return { createdAt: at, id };
}
