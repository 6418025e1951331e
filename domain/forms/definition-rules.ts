// The forms plug-in of the definition lifecycle: forms validate a draft on save (problems are
// answered; errors block check-in, sign-off and publish) and repair what is stored on read.
import type { SchemaProblem, SchemaRules } from '../definitions/schema-rules';

// MERGE: replace with checkFormSchema/repairFormSchema/toJsonSchema from ./form-schema and ./json-schema
// Minimal stand-ins until the form schema format lands: a form is an object with a non-empty
// string `title` and an array `fields`; anything but an object reads as an empty form.
type StandInFormSchema = { title: string; fields: unknown[] } & Record<string, unknown>;
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
function checkFormSchema(input: unknown): SchemaProblem[] {
  if (!isObject(input)) return [{ path: '', level: 'error', message: 'a form schema is an object' }];
  const problems: SchemaProblem[] = [];
  if (typeof input['title'] !== 'string' || input['title'].trim() === '') {
    problems.push({ path: 'title', level: 'error', message: 'a form needs a non-empty title' });
  }
  if (!Array.isArray(input['fields'])) problems.push({ path: 'fields', level: 'error', message: 'fields must be a list' });
  return problems;
}
function repairFormSchema(raw: unknown): StandInFormSchema {
  return isObject(raw) ? (raw as StandInFormSchema) : { title: 'Untitled form', fields: [] };
}
function toJsonSchema(schema: StandInFormSchema): object {
  return { $schema: 'https://json-schema.org/draft/2020-12/schema', title: schema.title, type: 'object', properties: {}, additionalProperties: true };
}
// MERGE: end of stand-ins

export const formDefinitionRules: SchemaRules = {
  check: (draft) => checkFormSchema(draft),
  repair: (raw) => repairFormSchema(raw),
  jsonSchema: (schema) => toJsonSchema(repairFormSchema(schema)),
};
