import { pgTable, primaryKey, integer, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { tenants } from './access';

/**
 * One row per embed attachment session (a browser-minted processRef under a tenant): the
 * attachments it holds, counted by one atomic upsert per upload (the per-session cap), and the
 * instance its uploads were linked to (set once). services/forms/embed-attachments.ts.
 */
export const embedSessions = pgTable(
  'embed_sessions',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    processRef: text('process_ref').notNull(),
    definitionId: uuid('definition_id').notNull(),
    attachments: integer('attachments').notNull().default(0),
    linkedInstanceId: uuid('linked_instance_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.processRef] })],
);
