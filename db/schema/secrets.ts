import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/** Per-tenant secrets, sealed with AES-256-GCM (domain/secret-box); never readable over HTTP. */
export const tenantSecrets = pgTable(
  'tenant_secrets',
  {
    tenantId: text('tenant_id').notNull(),
    name: text('name').notNull(),
    sealed: text('sealed').notNull(),
    updatedBy: text('updated_by').notNull(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.name] })],
);
