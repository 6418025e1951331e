// The signatures plug-in of the definition lifecycle: every read is the repaired schema (rule 4),
// problems are the repair's notes plus the check of the result, and the JSON Schema of a version
// describes the `variables` map a campaign supplies.
import type { SchemaRules } from '../definitions/schema-rules';
import { checkSigningSchema } from './schema-check';
import { repairSigningSchema } from './schema-repair';
import type { SigningSchema } from './signing-schema';

/** JSON Schema (2020-12) of a campaign's `variables` map for this signing schema. */
export function variablesJsonSchema(schema: SigningSchema): object {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Campaign variables',
    type: 'object',
    properties: Object.fromEntries(schema.variables.map((v) => [v.key, { type: 'string', title: v.label }])),
    required: schema.variables.filter((v) => v.required).map((v) => v.key),
    additionalProperties: false,
  };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The source PDF is uploaded through its own route (`POST .../document`), which writes `document`
 * into the draft: a save whose draft has no `document` block keeps it, rather than dropping the
 * upload. A draft that sends `document` replaces it, as any other part.
 */
function keepUploadedDocument(stored: unknown, saved: unknown): unknown {
  if (!isObject(saved) || saved.document !== undefined || !isObject(stored) || stored.document === undefined) return saved;
  return { ...saved, document: stored.document };
}

export const signatureDefinitionRules: SchemaRules = {
  check: checkSigningSchema,
  repair: (raw) => repairSigningSchema(raw).schema,
  jsonSchema: (schema) => variablesJsonSchema(repairSigningSchema(schema).schema),
  carryOver: keepUploadedDocument,
};
