import { index, pgTable, text, timestamp } from 'drizzle-orm/pg-core';
import { tenants } from './access';

/**
 * Machine principals of a tenant (HTTP Basic). The id is the Basic user name and the user id of
 * the client's membership and grants. Only a slow salted hash of the secret is kept
 * (`scrypt$<logN>$<r>$<p>$<salt>$<hash>`); the secret is shown once, at creation.
 */
export const apiClients = pgTable(
  'api_clients',
  {
    id: text('id').primaryKey(),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedBy: text('revoked_by'),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('api_clients_tenant_idx').on(t.tenantId, t.createdAt)],
);
