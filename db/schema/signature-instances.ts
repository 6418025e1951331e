import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, bigserial, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import {
  DELIVERY_STATES,
  RECIPIENT_STATES,
  SEAL_STATES,
  SIGNATURE_INSTANCE_STATES,
} from '../../domain/signatures/instance-states';
import { signatureDefinitions, signatureVersions } from './signatures';

const at = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A signing campaign (issue 13 §2): pinned to one published version. `variables` are the merge
 * values (business data). `waitingWorkflowId`: the workflow that started the campaign through the
 * platform activity and hears `SignatureClosure`; set by that activity only.
 */
export const signatureInstances = pgTable(
  'signature_instances',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tenantId: text('tenant_id').notNull(),
    definitionId: uuid('definition_id')
      .notNull()
      .references(() => signatureDefinitions.id),
    versionId: uuid('version_id')
      .notNull()
      .references(() => signatureVersions.id),
    version: integer('version').notNull(),
    status: text('status', { enum: SIGNATURE_INSTANCE_STATES }).notNull().default('PENDING'),
    sealStatus: text('seal_status', { enum: SEAL_STATES }),
    /** A reason without personal data (an error class or code). */
    sealError: text('seal_error'),
    sealedDocumentId: uuid('sealed_document_id'),
    variables: jsonb('variables').$type<Record<string, string>>().notNull().default({}),
    timeZone: text('time_zone').notNull().default('UTC'),
    expiresAt: at('expires_at'),
    waitingWorkflowId: text('waiting_workflow_id'),
    /** Makes a retried starting activity find its first campaign. */
    startKey: text('start_key'),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    completedAt: at('completed_at'),
    cancelledAt: at('cancelled_at'),
  },
  (t) => [
    index('signature_instances_list_idx').on(t.tenantId, t.createdAt, t.id),
    uniqueIndex('signature_instances_start_key_idx').on(t.tenantId, t.startKey),
  ],
);

/**
 * One recipient per signer role. Personal data is sealed with the tenant master key (secret box,
 * associated data = instance id + signer id): name, email, typed name, field values, and the
 * signing token itself (shown to the tenant, not readable from a dump); the token is found by its
 * SHA-256.
 */
export const signatureRecipients = pgTable(
  'signature_recipients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => signatureInstances.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    signerId: text('signer_id').notNull(),
    order: integer('order').notNull(),
    status: text('status', { enum: RECIPIENT_STATES }).notNull(),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    nameSealed: text('name_sealed').notNull(),
    emailSealed: text('email_sealed').notNull(),
    verify: text('verify').notNull(),
    signatureDocumentId: uuid('signature_document_id'),
    typedNameSealed: text('typed_name_sealed'),
    initialsDocumentId: uuid('initials_document_id'),
    fieldValuesSealed: text('field_values_sealed'),
    signedAt: at('signed_at'),
    openedAt: at('opened_at'),
    lastRemindedAt: at('last_reminded_at'),
    deliveryStatus: text('delivery_status', { enum: DELIVERY_STATES }),
    deliveryError: text('delivery_error'),
    deliveredAt: at('delivered_at'),
  },
  (t) => [
    uniqueIndex('signature_recipients_signer_idx').on(t.instanceId, t.signerId),
    uniqueIndex('signature_recipients_token_idx').on(t.tokenHash),
  ],
);

/**
 * The ceremony's audit trail, immutable at the database (migration triggers). The client address
 * and user agent are sealed; the IP-risk class and the country code are not personal data.
 */
export const signatureInstanceEvents = pgTable(
  'signature_instance_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    instanceId: uuid('instance_id').notNull(),
    tenantId: text('tenant_id').notNull(),
    action: text('action').notNull(),
    signerId: text('signer_id'),
    at: at('at').notNull().defaultNow(),
    clientSealed: text('client_sealed'),
    ipRisk: text('ip_risk'),
    geo: text('geo'),
  },
  (t) => [index('signature_instance_events_instance_idx').on(t.instanceId, t.id)],
);

/** The one live code of an EMAIL_OTP recipient and, once verified, its access token (forms' rules). */
export const signatureRecipientOtps = pgTable('signature_recipient_otps', {
  id: uuid('id').primaryKey().defaultRandom(),
  recipientId: uuid('recipient_id')
    .notNull()
    .unique('signature_recipient_otps_recipient_idx')
    .references(() => signatureRecipients.id, { onDelete: 'cascade' }),
  tenantId: text('tenant_id').notNull(),
  codeHash: text('code_hash'),
  codeSalt: text('code_salt'),
  attempts: integer('attempts').notNull().default(0),
  expiresAt: at('expires_at').notNull(),
  sentAt: at('sent_at').notNull(),
  accessTokenHash: text('access_token_hash'),
  accessExpiresAt: at('access_expires_at'),
});

/**
 * The download link of a sealed campaign's PDF (issue 22 §2): one per signer and one for the
 * sender (`signer_id` null), made and mailed by the ceremony's closing step. The token is found by
 * its SHA-256 and kept sealed (instance + signer bound) so the signing page can offer the same link.
 */
export const signatureCopyLinks = pgTable(
  'signature_copy_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    instanceId: uuid('instance_id')
      .notNull()
      .references(() => signatureInstances.id, { onDelete: 'cascade' }),
    tenantId: text('tenant_id').notNull(),
    party: text('party', { enum: ['signer', 'sender'] }).notNull(),
    signerId: text('signer_id'),
    tokenHash: text('token_hash').notNull(),
    tokenSealed: text('token_sealed').notNull(),
    expiresAt: at('expires_at').notNull(),
    deliveryStatus: text('delivery_status', { enum: DELIVERY_STATES }),
    deliveryError: text('delivery_error'),
    deliveredAt: at('delivered_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('signature_copy_links_token_idx').on(t.tokenHash),
    uniqueIndex('signature_copy_links_holder_idx').on(t.instanceId, sql`coalesce(${t.signerId}, '')`),
    check('signature_copy_links_party_check', sql`${t.party} IN ('signer', 'sender') AND (${t.party} = 'sender') = (${t.signerId} IS NULL)`),
  ],
);
