// The value lists of a document row's enum-like fields: the API's schemas and the table's columns
// both name them, so they live here, below both.

export const DOCUMENT_KINDS = ['FORM_ATTACHMENT', 'SIGNATURE_ATTACHMENT', 'FORM_SUBMISSION_PDF', 'GENERIC'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];
export const DOCUMENT_CAPABILITIES = ['FORMS', 'SIGNATURES', 'EMAIL'] as const;
export type DocumentCapability = (typeof DOCUMENT_CAPABILITIES)[number];
export const DOCUMENT_STATUSES = ['PENDING', 'READY', 'QUARANTINED', 'DELETED'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
export const RETENTION_MODES = ['GOVERNANCE', 'COMPLIANCE'] as const;
export type RetentionMode = (typeof RETENTION_MODES)[number];
/**
 * NOT_SCANNED until bytes are stored; SKIPPED when `docstore.scan=off`; ERROR while a scanner
 * failure keeps the row PENDING for the durable retry; CLEAN or INFECTED once clamd answered.
 */
export const SCAN_STATUSES = ['NOT_SCANNED', 'SKIPPED', 'CLEAN', 'INFECTED', 'ERROR'] as const;
export type ScanStatus = (typeof SCAN_STATUSES)[number];
