// Audit actions of the definition lifecycle: the spec's names where it gives them (created,
// checked_in, tested for sign-off, published, archived for retire), lower-case verbs otherwise.
export const AUDIT_ACTIONS = [
  'created',
  'checked_out',
  'released',
  'saved',
  'checked_in',
  'tested',
  'published',
  'archived',
  'unretired',
  'restored',
  'discarded',
  'cloned',
  'deleted',
  'renamed',
  'undeleted',
  // A hard purge: the definition and its versions are gone, the trail stays.
  'purged',
  // Forms only: an embed token rotation (services/forms/embed-tokens.ts).
  'embed_token_rotated',
  // Signatures only: a source PDF uploaded into the draft (services/signatures/source-document.ts).
  'document_uploaded',
  // Forms only: the outbound field roles were set (services/forms/outbound-config.ts).
  'outbound_configured',
  // Forms only: the origins allowed to frame the embed page were changed (services/forms/embed-origins.ts).
  'embed_origins_set',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];
