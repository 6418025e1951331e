// Keyset pagination over (createdAt, id), written once for every list.
import { and, eq, gt, lt, or, sql, type SQL } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { KeysetPosition } from '../../domain/keyset-cursor';

/**
 * The column as ISO-8601 UTC text with microseconds, for the page's cursor: a JavaScript Date
 * would round it to the millisecond and the next page would skip (or repeat) rows stamped within it.
 */
export const keysetTimestamp = (createdAt: PgColumn) =>
  sql<string>`to_char(${createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`;

/** Rows strictly after `position` in the list's order: `desc` is newest first, `asc` oldest first. */
export function afterKeyset(columns: { createdAt: PgColumn; id: PgColumn }, position: KeysetPosition, order: 'asc' | 'desc'): SQL {
  const beyond = order === 'desc' ? lt : gt;
  const at = sql`${position.createdAt}::timestamptz`;
  return or(beyond(columns.createdAt, at), and(eq(columns.createdAt, at), beyond(columns.id, position.id)))!;
}
