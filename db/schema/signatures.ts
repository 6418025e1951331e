import { pgTable } from 'drizzle-orm/pg-core';
import {
  auditColumns,
  auditConstraints,
  definitionColumns,
  definitionConstraints,
  versionColumns,
  versionConstraints,
  type DefinitionTables,
} from './definitions';

/** Signing definition (spec "Signatures"): the lifecycle columns only; the signing schema is the draft. */
export const signatureDefinitions = pgTable('signature_definitions', definitionColumns(), definitionConstraints('signature_definitions'));

/** A checked-in signing schema: immutable but for its one sign-off. */
export const signatureVersions = pgTable(
  'signature_versions',
  versionColumns(() => signatureDefinitions.id),
  versionConstraints('signature_versions'),
);

/** The signature definitions' audit trail: immutable, outlives its definition. */
export const signatureAuditEvents = pgTable('signature_audit_events', auditColumns(), auditConstraints('signature_audit_events'));

export const signatureDefinitionTables: DefinitionTables<typeof signatureDefinitions> = {
  definitions: signatureDefinitions,
  versions: signatureVersions,
  audit: signatureAuditEvents,
};
