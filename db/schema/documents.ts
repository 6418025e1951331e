import { sql } from 'drizzle-orm';
import { tenants } from './access';
import { bigint, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { DOCUMENT_CAPABILITIES, DOCUMENT_KINDS, DOCUMENT_STATUSES, RETENTION_MODES, SCAN_STATUSES } from '../../domain/documents/document-fields';

/**
 * The document registry row (spec "Documents"). `storageKey` is tenant-relative
 * (`{processRef}/{docId}-{slug}`); the physical key prefixes the tenant id. It and
 * `storageVersionId` never leave the server.
 */
export const documents = pgTable(
  'documents',
  {
    id: uuid('id').primaryKey(),
    version: bigint('version', { mode: 'number' }).notNull().default(1),
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    processRef: text('process_ref').notNull(),
    processInstanceId: text('process_instance_id'),
    taskId: text('task_id'),
    kind: text('kind', { enum: DOCUMENT_KINDS }).notNull(),
    capability: text('capability', { enum: DOCUMENT_CAPABILITIES }).notNull(),
    ownerEntityId: text('owner_entity_id'),
    storageKey: text('storage_key').notNull(),
    filename: text('filename').notNull(),
    contentType: text('content_type').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    sha256: text('sha256'),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull().default('PENDING'),
    retainUntil: timestamp('retain_until', { withTimezone: true }),
    retentionMode: text('retention_mode', { enum: RETENTION_MODES }),
    storageVersionId: text('storage_version_id'),
    scanStatus: text('scan_status', { enum: SCAN_STATUSES }).notNull().default('NOT_SCANNED'),
    scanSignature: text('scan_signature'),
    scanAttempts: integer('scan_attempts').notNull().default(0),
    scannedAt: timestamp('scanned_at', { withTimezone: true }),
    createdBy: text('created_by'),
    createdByName: text('created_by_name'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('documents_storage_key_idx').on(t.tenantId, t.storageKey),
    index('documents_process_idx').on(t.tenantId, t.processRef, t.createdAt, t.id),
    index('documents_task_idx').on(t.tenantId, t.taskId, t.createdAt, t.id),
    index('documents_owner_idx').on(t.tenantId, t.capability, t.ownerEntityId, t.createdAt, t.id),
    // The retention purge walks only rows that can expire.
    index('documents_retention_idx')
      .on(t.retainUntil)
      .where(sql`${t.retainUntil} is not null and ${t.status} <> 'DELETED'`),
  ],
);

/**
 * Processes the registry knows have started, per tenant (recorded by process-started). Layer 3
 * of the guard asks it for a process context; later uploads under the processRef inherit the
 * processInstanceId, and `workflowId` (when given) is where documentAttachedSignal goes.
 */
export const documentProcesses = pgTable(
  'document_processes',
  {
    tenantId: text('tenant_id')
      .notNull()
      .references(() => tenants.id, { onDelete: 'cascade' }),
    processRef: text('process_ref').notNull(),
    processInstanceId: text('process_instance_id').notNull(),
    workflowId: text('workflow_id'),
    startedBy: text('started_by'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.processRef] })],
);
