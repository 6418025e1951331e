/**
 * `visibleIf`: a field shows when the earlier field it names is shown and holds the value (`equals`)
 * or one of the values (`in`); for a multiselect source, when the selection includes it. An absent
 * source (missing, null, '', []) holds nothing, so the field stays hidden. Equality is JSON equality
 * of scalars, the same as JSON Schema's `const` and `enum` (json-schema.ts says it with if/then).
 */
import { TYPE_TRAITS } from './field-types';
import type { FormField, FormSchema, VisibleIf } from './form-schema';
import { isAbsent } from './value-schemas';

export function conditionHolds(condition: VisibleIf, source: FormField, value: unknown): boolean {
  if (isAbsent(value)) return false;
  const accepted: unknown[] = Object.hasOwn(condition, 'equals') ? [condition.equals] : (condition.in ?? []);
  if (TYPE_TRAITS[source.type].value === 'choices') return Array.isArray(value) && value.some((v) => accepted.includes(v));
  return accepted.includes(value);
}

/** The fields shown for these values, in schema order. A field whose source is hidden is hidden too. */
export function visibleFields(schema: FormSchema, values: Readonly<Record<string, unknown>>): FormField[] {
  const shown = new Map<string, FormField>();
  for (const field of schema.fields) {
    const condition = field.visibleIf;
    const source = condition ? shown.get(condition.field) : undefined;
    const value = condition && Object.hasOwn(values, condition.field) ? values[condition.field] : undefined;
    if (!condition || (source && conditionHolds(condition, source, value))) shown.set(field.key, field);
  }
  return [...shown.values()];
}
