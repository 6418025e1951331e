import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  auditConstraints,
  definitionColumns,
  definitionConstraints,
  versionColumns,
  versionConstraints,
  type DefinitionTables,
} from './definitions';
import { FORM_KINDS } from '../../domain/forms/form-kinds';
import { FORM_INSTANCE_ORIGINS } from '../../domain/forms/instance-origins';
import { FORM_INSTANCE_STATES, type FormInstanceContext } from '../../domain/forms/instance-states';
import type { OutboundRole } from '../../domain/forms/outbound-roles';

/**
 * FormDefinition (spec "Forms"): the lifecycle columns plus the form's own. outboundRolesJson,
 * allowedEmbedOrigins and embedKeyVersion are used by the outbound and embed work that follows.
 */
export const formDefinitions = pgTable(
  'form_definitions',
  {
    ...definitionColumns(),
    kind: text('kind', { enum: FORM_KINDS }).notNull(),
    submissionHandling: text('submission_handling'),
    outboundRolesJson: jsonb('outbound_roles_json').$type<Record<string, OutboundRole>>().notNull().default({}),
    allowedEmbedOrigins: jsonb('allowed_embed_origins').$type<string[]>().notNull().default([]),
    embedKeyVersion: integer('embed_key_version').notNull().default(1),
  },
  definitionConstraints('form_definitions'),
);

/** FormVersion: version max+1 per form at check-in, schema immutable. */
export const formVersions = pgTable('form_versions', versionColumns(() => formDefinitions.id), versionConstraints('form_versions'));

/** FormAuditEvent: immutable. */
export const formAuditEvents = pgTable('form_audit_events', auditColumns(), auditConstraints('form_audit_events'));

export const formDefinitionTables: DefinitionTables<typeof formDefinitions> = {
  definitions: formDefinitions,
  versions: formVersions,
  audit: formAuditEvents,
};

/** FormInstance: pinned to one checked-in version of its definition. */
export const formInstances = pgTable(
  'form_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    /** Opaque, 256 bits of randomness, for recipient URLs (outbound); never derived from the id. */
    token: text('token').notNull(),
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => formDefinitions.id),
    definitionCode: text('definition_code').notNull(),
    definitionVersion: integer('definition_version').notNull(),
    state: text('state', { enum: FORM_INSTANCE_STATES }).notNull(),
    prefill: jsonb('prefill').$type<Record<string, unknown>>().notNull().default({}),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    recipient: jsonb('recipient').$type<Record<string, unknown>>().notNull().default({}),
    context: jsonb('context').$type<FormInstanceContext>().notNull().default({}),
    /** How it came to be: EMBED (public submit), API (instance routes) or OUTBOUND (sent to a recipient). */
    origin: text('origin', { enum: FORM_INSTANCE_ORIGINS }).notNull(),
    createdBy: text('created_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    version: integer('version').notNull().default(1),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('form_instances_token_idx').on(t.token),
    index('form_instances_list_idx').on(t.tenantId, t.createdAt, t.id),
    index('form_instances_code_idx').on(t.tenantId, t.definitionCode, t.createdAt),
    // The expiry sweep's scan: open instances with a deadline, oldest deadline first.
    index('form_instances_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.state} in ('DRAFT', 'SENT', 'OPENED') and ${t.expiresAt} is not null`),
  ],
);

/**
 * FormRecipientOtp (spec): the one live code of an outbound instance, stored only as salted
 * SHA-256, with its attempts and expiry; `sentAt` drives the resend cooldown. After a verified
 * code, the access token of the recipient's session, stored only as its SHA-256, with its expiry.
 */
export const formRecipientOtps = pgTable('form_recipient_otps', {
  id: uuid('id').primaryKey().defaultRandom(),
  instanceId: uuid('instance_id')
    .notNull()
    .unique('form_recipient_otps_instance_idx')
    .references(() => formInstances.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id').notNull(),
  /** Null once the code is used or dead (attempt cap). */
  codeHash: text('code_hash'),
  codeSalt: text('code_salt'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  accessTokenHash: text('access_token_hash'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
});
