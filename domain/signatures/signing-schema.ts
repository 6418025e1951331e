// The signing schema (spec "Signatures", Resources): the design-time document a signature
// definition versions. Coordinates are PDF points with a top-left origin (geometry rule 1); pages
// are numbered from 1. Bytes of the PDF are never in the schema, only its opaque document key.

export const FIELD_TYPES = ['SIGNATURE', 'INITIALS', 'DATE', 'NAME', 'TEXT'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** Named by the spec; only NONE is operational (EMAIL_OTP follows with the campaign work). */
export const VERIFY_METHODS = ['NONE', 'EMAIL_OTP', 'SMS_OTP', 'IDV'] as const;
export type VerifyMethod = (typeof VERIFY_METHODS)[number];

export const ROUTINGS = ['sequential', 'parallel'] as const;
export type Routing = (typeof ROUTINGS)[number];

export interface SourceDocument {
  /** Opaque document-store key of the source PDF (set by the upload). */
  key?: string;
  name: string;
  pageCount?: number;
}

export interface Signer {
  id: string;
  label: string;
  /** Equal order signs in parallel, ascending order signs sequentially. */
  order: number;
  verify?: VerifyMethod;
  /** `#rrggbb`, the colour an editor draws the signer's fields in. */
  color?: string;
}

export interface SigningField {
  id: string;
  signerId: string;
  type: FieldType;
  page: number;
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface SigningVariable {
  key: string;
  label: string;
  required?: boolean;
}

export interface SigningSchema {
  document: SourceDocument;
  signers: Signer[];
  fields: SigningField[];
  variables: SigningVariable[];
  routing: Routing;
}

export const SCHEMA_LIMITS = {
  signers: 50,
  fields: 2_000,
  variables: 200,
  idLength: 100,
  labelLength: 200,
  documentKeyLength: 200,
  /** PDF's largest page side (200 inches), in points. */
  maxCoordinate: 14_400,
} as const;

/** The size a field gets when a stored one lacks it. */
export const DEFAULT_FIELD_SIZE: Record<FieldType, { w: number; h: number }> = {
  SIGNATURE: { w: 180, h: 50 },
  INITIALS: { w: 60, h: 40 },
  DATE: { w: 100, h: 20 },
  NAME: { w: 160, h: 20 },
  TEXT: { w: 160, h: 20 },
};

export const VARIABLE_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;
export const SIGNER_COLOR = /^#[0-9a-fA-F]{6}$/;

export const emptySigningSchema = (): SigningSchema => ({
  document: { name: '' },
  signers: [],
  fields: [],
  variables: [],
  routing: 'sequential',
});
