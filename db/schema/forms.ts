import { integer, jsonb, pgTable, text } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  auditConstraints,
  definitionColumns,
  definitionConstraints,
  versionColumns,
  versionConstraints,
  type DefinitionTables,
} from './definitions';

export const FORM_KINDS = ['INBOUND', 'OUTBOUND'] as const;
export type FormKind = (typeof FORM_KINDS)[number];
export const OUTBOUND_ROLES = ['PREPARER', 'RECIPIENT', 'EITHER'] as const;
export type OutboundRole = (typeof OUTBOUND_ROLES)[number];

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
