import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The API nodes that cache caller snapshots, one row each, its heartbeat refreshed on every ping
 * (docs/access.md "Caching across nodes"). A writer of access waits for the nodes heartbeating now.
 */
export const accessNodes = pgTable(
  'access_nodes',
  {
    nodeId: text('node_id').primaryKey(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('access_nodes_heartbeat_idx').on(t.heartbeatAt)],
);
