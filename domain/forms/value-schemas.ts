/**
 * The zod type of each field's value, derived from the field: the one source of both submission
 * validation (submission.ts) and the published JSON Schema (json-schema.ts). Lengths count code
 * points, as JSON Schema does, so those checks are refinements whose JSON Schema keywords are
 * registered in `jsonKeywords` beside them.
 *
 * Absent values: a missing key, null, '' and [] all mean "no answer" for every type. An optional
 * field accepts them (and they are not kept); a required one refuses them with "is required".
 */
import { z } from 'zod';
import { LIMITS, TYPE_TRAITS, textCap } from './field-types';
import type { FormField } from './form-schema';
import { anchoredPattern } from './pattern-safety';
import { codePointLength } from './text-cleaning';

/** JSON Schema keywords zod cannot derive from a refinement; toJSONSchema merges them in. */
export const jsonKeywords = z.registry<Record<string, unknown>>();

export const isAbsent = (value: unknown): boolean =>
  value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);

/** Digits with the usual separators, an optional leading +, at least one digit. */
export const TEL = /^\+?[0-9 ()./-]*[0-9][0-9 ()./-]*$/u;

const ABSENT = [z.null(), z.literal(''), z.array(z.unknown()).max(0)] as const;

const say = (message: string) => ({ error: (issue: { input?: unknown }) => (isAbsent(issue.input) ? 'is required' : message) });

/** What a submission may hold under the field's key; undefined for content, which holds nothing. */
export function entrySchema(field: FormField): z.ZodType | undefined {
  const value = valueSchema(field);
  if (!value) return undefined;
  // The value branch goes last: submission.ts reports the last branch's issues when all fail.
  return field.required ? value : z.union([...ABSENT, value]).optional();
}

/** A present (non-absent) value of the field. */
export function valueSchema(field: FormField): z.ZodType | undefined {
  switch (TYPE_TRAITS[field.type].value) {
    case 'text':
      return textSchema(field);
    case 'number':
      return numberSchema(field);
    case 'date':
      return z.iso.date(say('must be a date as YYYY-MM-DD'));
    case 'choice':
      return oneOfOptions(field, say('must be one of the options'));
    case 'choices':
      return listSchema(field, oneOfOptions(field, { error: 'must be one of the options' }), 'options', field.validation?.maxItems);
    case 'boolean':
      return field.required ? z.literal(true, say('must be checked')) : z.boolean(say('must be true or false'));
    case 'files':
      return listSchema(field, z.uuid({ error: 'must be a document id' }), 'document ids', Math.min(field.validation?.maxItems ?? LIMITS.files, LIMITS.files));
    case 'none':
      return undefined;
  }
}

function textSchema(field: FormField): z.ZodType {
  const cap = textCap(field.type, field.validation);
  const min = Math.max(field.required ? 1 : 0, field.validation?.minLength ?? 0);
  // Each check aborts, so a pattern only ever sees a value within its length bound.
  let s = z.string(say('must be text')).refine((v) => codePointLength(v) <= cap, { abort: true, error: `must be at most ${cap} characters` });
  if (min > 0) {
    s = s.refine((v) => codePointLength(v) >= min, {
      abort: true,
      error: (issue) => (issue.input === '' ? 'is required' : `must be at least ${min} characters`),
    });
  }
  if (field.type === 'email') s = s.regex(z.regexes.email, { abort: true, error: 'must be an email address' });
  if (field.type === 'tel') s = s.regex(TEL, { abort: true, error: 'must be a telephone number (digits, spaces and + ( ) - . /)' });
  const pattern = field.validation?.pattern;
  if (pattern !== undefined) s = s.regex(anchoredPattern(pattern), 'does not have the expected format');
  return s.register(jsonKeywords, {
    ...(min > 0 ? { minLength: min } : {}),
    maxLength: cap,
    ...(field.type === 'email' ? { format: 'email' } : {}),
  });
}

function numberSchema(field: FormField): z.ZodType {
  const { min, max, integer } = field.validation ?? {};
  let n = integer ? z.int(say('must be a whole number')) : z.number(say('must be a number'));
  if (min !== undefined) n = n.min(min, `must be at least ${min}`);
  if (max !== undefined) n = n.max(max, `must be at most ${max}`);
  return n;
}

function listSchema(field: FormField, item: z.ZodType, what: string, maxItems: number | undefined): z.ZodType {
  const minItems = Math.max(field.required ? 1 : 0, field.validation?.minItems ?? 0);
  let list = z.array(item, say(`must be a list of ${what}`));
  if (minItems > 0) {
    list = list.min(minItems, {
      error: (issue) => (isAbsent(issue.input) ? 'is required' : `must hold at least ${minItems}`),
    });
  }
  if (maxItems !== undefined) list = list.max(maxItems, `must hold at most ${maxItems}`);
  return list
    .refine((items) => new Set(items).size === items.length, 'must not repeat a value')
    .register(jsonKeywords, { uniqueItems: true });
}

function oneOfOptions(field: FormField, params: { error: string | ((issue: { input?: unknown }) => string) }): z.ZodType {
  const values = (field.options ?? []).map((o) => o.value);
  // A valid schema gives every choice field an option; without one nothing can be chosen.
  return values.length > 0 ? z.literal(values, params) : z.never(params);
}
