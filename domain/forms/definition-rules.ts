// The forms plug-in of the definition lifecycle: forms validate a draft on save (problems are
// answered; errors block check-in, sign-off and publish) and repair what is stored on read.
// A stored draft that is a JSON object reads back as it was saved, errors included, so its author
// sees and fixes exactly what the problems name; only what cannot be read as a form at all is
// repaired. Versions passed the check at check-in, so repairing them changes nothing unless the
// rules tightened since; the JSON Schema is always built from the repaired form.
import type { SchemaRules } from '../definitions/schema-rules';
import { toJsonSchema } from './json-schema';
import { checkFormSchema } from './schema-check';
import { repairFormSchema } from './schema-repair';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const formDefinitionRules: SchemaRules = {
  check: (draft) => checkFormSchema(draft),
  repair: (raw) => (isObject(raw) ? raw : repairFormSchema(raw)),
  jsonSchema: (schema) => toJsonSchema(repairFormSchema(schema)),
};
