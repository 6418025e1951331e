/**
 * Server-side cleaning and validation of a submission against a (valid) form schema, in order:
 * keep only the keys of value-holding fields, strip control characters and lone surrogates from
 * their strings (a textarea keeps tab and line breaks), drop fields hidden by `visibleIf`, then
 * parse with the zod object derived from the shown fields (value-schemas.ts). Absent answers are
 * not kept. docs/forms.md "Form schema" lists the value shape of each type.
 */
import { z } from 'zod';
import { LIMITS, TYPE_TRAITS, textCap } from './field-types';
import type { FormField, FormSchema } from './form-schema';
import { cleanText } from './text-cleaning';
import { entrySchema, isAbsent } from './value-schemas';
import { visibleFields } from './visibility';

export type SubmissionError = { path: string; message: string };
export type SubmissionResult = { ok: true; data: Record<string, unknown> } | { ok: false; errors: SubmissionError[] };

/** Errors reported per submission: enough to fix a form, bounded for a hostile one. */
export const MAX_SUBMISSION_ERRORS = 100;

/**
 * Error paths are relative to the submitted object, segments joined with '.': `email`, `tags.1`;
 * '' for the object itself. A route prefixes its request part (`json.email`).
 */
export function validateSubmission(schema: FormSchema, data: unknown): SubmissionResult {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    return { ok: false, errors: [{ path: '', message: 'must be an object of field values' }] };
  }
  const values = cleanedValues(schema, data as Record<string, unknown>);
  const shown = visibleFields(schema, values);
  const shape: Record<string, z.ZodType> = {};
  for (const field of shown) {
    const entry = entrySchema(field);
    if (entry) shape[field.key] = entry;
  }
  const parsed = z.object(shape).safeParse(values);
  if (!parsed.success) return { ok: false, errors: errorsOf(parsed.error.issues) };
  const parsedData = parsed.data as Record<string, unknown>;
  const kept: Record<string, unknown> = {};
  for (const key of Object.keys(shape)) {
    const value = Object.hasOwn(parsedData, key) ? parsedData[key] : undefined;
    if (!isAbsent(value)) kept[key] = value;
  }
  return { ok: true, data: kept };
}

/** Own keys of value-holding fields only (a prototype-less record, so `constructor` is just a key). */
function cleanedValues(schema: FormSchema, data: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = Object.create(null);
  for (const field of schema.fields) {
    const traits = TYPE_TRAITS[field.type];
    if (traits.value === 'none' || !Object.hasOwn(data, field.key)) continue;
    const value = data[field.key];
    values[field.key] =
      typeof value === 'string'
        ? cleanText(value, traits.multiline ?? false)
        : Array.isArray(value)
          ? value.map((item) => (typeof item === 'string' ? cleanText(item, false) : item))
          : value;
  }
  return values;
}

type Issue = z.core.$ZodIssue;

/** The first issue at each path (zod may add a length issue after a type issue), at most MAX_SUBMISSION_ERRORS. */
function errorsOf(issues: readonly Issue[]): SubmissionError[] {
  const errors: SubmissionError[] = [];
  const seen = new Set<string>();
  const visit = (list: readonly Issue[], prefix: PropertyKey[]) => {
    for (const issue of list) {
      if (errors.length >= MAX_SUBMISSION_ERRORS) return;
      const path = [...prefix, ...issue.path];
      // An optional field is a union of the absent forms and its value; the value's issues say what is wrong.
      const last = issue.code === 'invalid_union' ? issue.errors.at(-1) : undefined;
      if (last) visit(last, path);
      else {
        const joined = path.map(String).join('.');
        if (!seen.has(joined)) errors.push({ path: joined, message: issue.message });
        seen.add(joined);
      }
    }
  };
  visit(issues, []);
  return errors;
}

/**
 * The largest JSON body a valid submission of this schema needs, however its client escapes
 * characters (up to 12 bytes per code point as two \uXXXX escapes) and lays it out: a bound the
 * caller may enforce on the stream (413), lowered by a setting if it likes.
 */
export function submissionByteBound(schema: FormSchema): number {
  const PER_FIELD_LAYOUT = 16;
  let bytes = 1024;
  for (const field of schema.fields) {
    const value = valueBytes(field);
    if (value > 0) bytes += 12 * field.key.length + 4 + PER_FIELD_LAYOUT + value;
  }
  return bytes;
}

function valueBytes(field: FormField): number {
  const string = (chars: number) => 12 * chars + 2;
  const options = (field.options ?? []).map((o) => string(o.value.length));
  switch (TYPE_TRAITS[field.type].value) {
    case 'text':
      return string(textCap(field.type, field.validation));
    case 'number':
      return 32;
    case 'date':
      return string(10);
    case 'choice':
      return Math.max(0, ...options);
    case 'choices':
      return options.reduce((sum, n) => sum + n + 2, 2);
    case 'boolean':
      return 5;
    case 'files':
      return (string(36) + 2) * Math.min(field.validation?.maxItems ?? LIMITS.files, LIMITS.files) + 2;
    case 'none':
      return 0;
  }
}
