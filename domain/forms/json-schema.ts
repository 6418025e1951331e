/**
 * The JSON Schema (draft 2020-12) of a form's submissions, so other clients can validate with
 * standard tools. Each field's schema is zod's own `toJSONSchema` of the type submission.ts parses
 * with (value-schemas.ts); a field with `visibleIf` is constrained only inside an `if`/`then` whose
 * `if` holds exactly when the server shows it (its condition and those of its sources).
 *
 * Where the two cannot agree (docs/forms.md "Form schema"): the server removes control characters
 * and lone surrogates before it validates, and `format` is an annotation (its `pattern` carries the
 * rule). Unknown properties are allowed here and stripped by the server.
 */
import { z } from 'zod';
import { TYPE_TRAITS } from './field-types';
import type { FormField, FormSchema, VisibleIf } from './form-schema';
import { entrySchema, jsonKeywords } from './value-schemas';

export const JSON_SCHEMA_DIALECT = 'https://json-schema.org/draft/2020-12/schema';

type Json = Record<string, unknown>;

export function toJsonSchema(schema: FormSchema): object {
  const byKey = new Map(schema.fields.map((f) => [f.key, f]));
  const properties: Json = {};
  const required: string[] = [];
  const allOf: Json[] = [];
  for (const field of schema.fields) {
    const entry = entrySchema(field);
    if (!entry) continue;
    const annotations = { title: field.label, ...(field.help ? { description: field.help } : {}) };
    const json = { ...fieldJson(entry), ...annotations };
    if (!field.visibleIf) {
      properties[field.key] = json;
      if (field.required) required.push(field.key);
      continue;
    }
    // Listed for readers; while hidden any value is accepted (the server drops it).
    properties[field.key] = annotations;
    allOf.push({
      if: shownWhen(field, byKey),
      then: { properties: { [field.key]: json }, ...(field.required ? { required: [field.key] } : {}) },
    });
  }
  return {
    $schema: JSON_SCHEMA_DIALECT,
    title: schema.title,
    ...(schema.description ? { description: schema.description } : {}),
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(allOf.length > 0 ? { allOf } : {}),
  };
}

function fieldJson(entry: z.ZodType): Json {
  const { $schema: _, ...json } = z.toJSONSchema(entry, { target: 'draft-2020-12', io: 'input', metadata: jsonKeywords }) as Json;
  return json;
}

/** The field's condition and, up the chain, its sources' conditions: all must hold. */
function shownWhen(field: FormField, byKey: Map<string, FormField>): Json {
  const conditions: Json[] = [];
  let current: FormField | undefined = field;
  // Sources come earlier in a valid schema, so the chain ends; the bound guards an invalid one.
  for (let hops = 0; current?.visibleIf && hops < byKey.size; hops++) {
    const source = byKey.get(current.visibleIf.field);
    if (!source) return { not: {} };
    conditions.push(conditionJson(current.visibleIf, source));
    current = source;
  }
  return conditions.length === 1 ? (conditions[0] as Json) : { allOf: conditions };
}

function conditionJson(condition: VisibleIf, source: FormField): Json {
  const match = Object.hasOwn(condition, 'equals') ? { const: condition.equals } : { enum: condition.in ?? [] };
  const holds = TYPE_TRAITS[source.type].value === 'choices' ? { type: 'array', contains: match } : match;
  return { properties: { [source.key]: holds }, required: [source.key] };
}
