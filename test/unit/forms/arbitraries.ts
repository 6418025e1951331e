/**
 * fast-check arbitraries for the form tests: valid schemas in the canonical form repair keeps
 * unchanged, submissions for them (valid, invalid, absent and junk values, unknown keys), and
 * messy stored drafts. Strings hold no control characters, so server and JSON Schema can agree.
 */
import fc from 'fast-check';
import { FIELD_TYPES, type FieldType, LIMITS, TYPE_TRAITS, textCap } from '../../../domain/forms/field-types';
import type { FieldOption, FormField, FormSchema } from '../../../domain/forms/form-schema';
import { cleanText } from '../../../domain/forms/text-cleaning';

const UNITS = ['a', 'b', 'Z', '1', ' ', '-', '.', '@', 'é', '😀', '中'];
export const cleanString = (maxLength = 12, minLength = 0) =>
  fc.string({ unit: fc.constantFrom(...UNITS), minLength, maxLength });
export const nonBlank = (maxLength = 12) => cleanString(maxLength, 1).filter((s) => s.trim() !== '');

/** Patterns the safety check accepts, with arbitraries of strings that match them. */
export const PATTERNS: Record<string, fc.Arbitrary<string>> = {
  '[a-z]+': fc.stringMatching(/^[a-z]{1,8}$/),
  '\\d{3}': fc.stringMatching(/^\d{3}$/),
  '[A-Z][a-z]*': fc.stringMatching(/^[A-Z][a-z]{0,6}$/),
  'yes|no': fc.constantFrom('yes', 'no'),
  '.{2,5}': cleanString(5, 2),
  '😀+': fc.integer({ min: 1, max: 4 }).map((n) => '😀'.repeat(n)),
};

const OPTION_VALUES = ['a', 'b', 'c', 'yes', 'no', 'constructor', '__proto__', 'toString', 'é', '😀', '1', 'x y'];
const KEYS = ['name', 'email', 'age', 'tags', 'why', 'a', 'b_2', 'x', 'constructor_'];

const maybe = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

/** Drops undefined properties, as JSON would. */
function compact<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

const optionsArb: fc.Arbitrary<FieldOption[]> = fc
  .uniqueArray(fc.constantFrom(...OPTION_VALUES), { minLength: 1, maxLength: 5 })
  .chain((values) => fc.tuple(...values.map((value) => fc.oneof(fc.constant(value), nonBlank(8)).map((label) => ({ value, label })))));

function validationArb(type: FieldType, options: FieldOption[] | undefined): fc.Arbitrary<FormField['validation']> {
  const none = fc.constant(undefined);
  switch (TYPE_TRAITS[type].value) {
    case 'number':
      return fc
        .record({ a: maybe(fc.integer({ min: -50, max: 50 })), b: maybe(fc.integer({ min: -50, max: 50 })), integer: fc.boolean(), half: fc.boolean() })
        .map(({ a, b, integer, half }) => {
          const [min, max] = a !== undefined && b !== undefined && a > b ? [b, a] : [a, b];
          const v = compact({ min: min !== undefined && half ? min - 0.5 : min, max, integer: integer || undefined });
          return Object.keys(v).length ? v : undefined;
        });
    case 'text':
      return fc
        .record({ pattern: maybe(fc.constantFrom(...Object.keys(PATTERNS))), max: maybe(fc.integer({ min: 1, max: 12 })), min: maybe(fc.integer({ min: 0, max: 4 })) })
        .map(({ pattern, max, min }) => {
          const maxLength = max === undefined ? undefined : Math.min(max, textCap(type, { pattern }));
          const minLength = min !== undefined && min <= (maxLength ?? textCap(type, { pattern })) ? min : undefined;
          const v = compact({ minLength, maxLength, pattern });
          return Object.keys(v).length ? v : undefined;
        });
    case 'choices':
    case 'files': {
      const cap = type === 'file' ? LIMITS.files : (options?.length ?? 1);
      return fc.record({ min: maybe(fc.integer({ min: 0, max: cap })), max: maybe(fc.integer({ min: 0, max: cap })) }).map(({ min, max }) => {
        const v = compact({ minItems: min !== undefined && max !== undefined && min > max ? undefined : min, maxItems: max });
        return Object.keys(v).length ? v : undefined;
      });
    }
    default:
      return none;
  }
}

const fieldArb = (type: FieldType): fc.Arbitrary<Omit<FormField, 'key'>> =>
  (TYPE_TRAITS[type].takesOptions ? optionsArb : fc.constant(undefined)).chain((options) =>
    fc
      .record({
        label: nonBlank(),
        required: type === 'content' ? fc.constant(undefined) : fc.constantFrom(true, undefined),
        help: maybe(nonBlank(20)),
        placeholder: TYPE_TRAITS[type].takesPlaceholder ? maybe(nonBlank()) : fc.constant(undefined),
        validation: validationArb(type, options),
      })
      .map((rest) => compact({ type, ...rest, options })),
  );

/** A value `source` can hold, to build conditions that sometimes hold. */
function sampleValue(source: FormField): fc.Arbitrary<string | number | boolean> {
  switch (TYPE_TRAITS[source.type].value) {
    case 'choice':
    case 'choices':
      return fc.constantFrom(...(source.options ?? []).map((o) => o.value));
    case 'boolean':
      return fc.boolean();
    case 'number':
      return fc.integer({ min: -3, max: 3 });
    case 'date':
      return fc.constantFrom('2024-02-29', '2025-01-01');
    default:
      return fc.constantFrom('yes', 'no', 'abc');
  }
}

/** Valid schemas in canonical form (what repairFormSchema returns unchanged). */
export const validSchema: fc.Arbitrary<FormSchema> = fc
  .record({
    title: nonBlank(),
    description: maybe(nonBlank(30)),
    fields: fc.array(
      fc.record({ key: fc.constantFrom(...KEYS), body: fc.constantFrom(...FIELD_TYPES).chain(fieldArb), pick: fc.nat(), useIn: fc.boolean(), conditional: fc.boolean() }),
      { maxLength: 8 },
    ),
  })
  .chain(({ title, description, fields }) => {
    const built: FormField[] = [];
    const taken = new Set<string>();
    for (const [i, f] of fields.entries()) {
      const key = taken.has(f.key) ? `${f.key}_${i}` : f.key;
      taken.add(key);
      built.push({ key, ...f.body } as FormField);
    }
    // Conditions point at earlier value fields (not file), with values they can or cannot hold.
    const conditioned = built.map((field, i) => {
      const sources = built.slice(0, i).filter((s) => s.type !== 'content' && s.type !== 'file');
      const choice = fields[i];
      if (!choice?.conditional || sources.length === 0) return fc.constant(field);
      const source = sources[choice.pick % sources.length] as FormField;
      const value = fc.oneof({ arbitrary: sampleValue(source), weight: 4 }, { arbitrary: fc.constantFrom<string | number | boolean>('zzz', 42, true), weight: 1 });
      return (choice.useIn ? fc.array(value, { minLength: 1, maxLength: 3 }).map((values) => ({ field: source.key, in: values })) : value.map((v) => ({ field: source.key, equals: v }))).map(
        (visibleIf) => ({ ...field, visibleIf }),
      );
    });
    return fc.tuple(...conditioned).map((fs) => compact({ title, description, fields: fs }));
  });

const uuid = fc.uuid({ version: 4 });
const dates = fc.oneof(
  fc.date({ min: new Date('1900-01-01'), max: new Date('2999-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2024-02-29', '2023-02-29', '2025-13-01', '2025-1-1', '20250101'),
);

/** Values a well-meaning client might send for the field: mostly of its shape, some not. */
function valueFor(field: FormField): fc.Arbitrary<unknown> {
  const options = (field.options ?? []).map((o) => o.value);
  const optionOrNot = options.length ? fc.oneof({ arbitrary: fc.constantFrom(...options), weight: 4 }, { arbitrary: fc.constant('nope'), weight: 1 }) : fc.constant('nope');
  switch (TYPE_TRAITS[field.type].value) {
    case 'text': {
      const pattern = field.validation?.pattern;
      const typed = field.type === 'email' ? fc.oneof(fc.constantFrom('a@b.co', 'x.y@example.org', 'bad@', 'é@x.com'), fc.emailAddress()) : field.type === 'tel' ? fc.stringMatching(/^\+?[0-9 ()-]{0,12}$/) : cleanString(14);
      return pattern ? fc.oneof(PATTERNS[pattern] as fc.Arbitrary<string>, typed) : typed;
    }
    case 'number':
      return fc.oneof(fc.integer({ min: -60, max: 60 }), fc.double({ min: -60, max: 60, noNaN: true }), fc.constant(2 ** 60), fc.constant('5'));
    case 'date':
      return dates;
    case 'choice':
      return optionOrNot;
    case 'choices':
      return fc.array(optionOrNot, { maxLength: 4 });
    case 'boolean':
      return fc.oneof(fc.boolean(), fc.constant('true'));
    case 'files':
      return fc.oneof(fc.array(uuid, { maxLength: 4 }), fc.array(fc.constantFrom('00000000-0000-4000-8000-000000000000'), { maxLength: 2 }), fc.constant(['not-a-uuid']), uuid);
    case 'none':
      return cleanString();
  }
}

export const junk: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.boolean(),
  cleanString(),
  fc.array(cleanString(4), { maxLength: 2 }),
  fc.dictionary(fc.constantFrom('a', 'b'), fc.integer(), { maxKeys: 2 }),
);

/** A submission for `schema`: each field omitted, absent, a value of roughly its shape, or junk; plus unknown keys. */
export function submissionFor(schema: FormSchema): fc.Arbitrary<Record<string, unknown>> {
  const entries = schema.fields.map((field) =>
    fc
      .oneof(
        { arbitrary: fc.constant(undefined), weight: 2 },
        { arbitrary: fc.constantFrom(null, '', []), weight: 1 },
        { arbitrary: valueFor(field), weight: 6 },
        { arbitrary: junk, weight: 1 },
      )
      .map((value) => [field.key, value] as const),
  );
  return fc.tuple(fc.tuple(...entries), fc.dictionary(fc.constantFrom('extra', 'unknown_key', 'Name'), junk, { maxKeys: 2 })).map(([pairs, extra]) => {
    const data: Record<string, unknown> = { ...extra };
    for (const [key, value] of pairs) if (value !== undefined) data[key] = value;
    return data;
  });
}

/** Stored drafts gone wrong: right-ish shapes with wrong types, bad keys, junk in every slot. */
export const messyDraft: fc.Arbitrary<unknown> = (() => {
  const anyText = fc.oneof(cleanString(20), fc.string({ unit: 'binary', maxLength: 20 }), fc.constant('  '), fc.anything({ maxDepth: 1 }));
  const messyKey = fc.oneof(fc.constantFrom(...KEYS), fc.constantFrom('First Name', '1st', 'Über', '', '_x', 'a'.repeat(80), 'A-B'), anyText);
  const messyType = fc.oneof(fc.constantFrom<unknown>(...FIELD_TYPES), fc.constantFrom('TEXT', 'Dropdown', 'signature', ' email '), anyText);
  const messyOptions = fc.oneof(
    fc.array(fc.oneof(fc.record({ value: anyText, label: anyText }, { requiredKeys: [] }), anyText, fc.integer()), { maxLength: 6 }),
    anyText,
  );
  const messyNumber = fc.oneof(fc.integer({ min: -5, max: 30 }), fc.double(), fc.constant('3'), fc.constant(1e9));
  const messyValidation = fc.oneof(
    fc.record(
      { min: messyNumber, max: messyNumber, minLength: messyNumber, maxLength: messyNumber, pattern: fc.oneof(fc.constantFrom('(a+)+', '[a-z]+', '(', '\\d{3}'), anyText), integer: fc.oneof(fc.boolean(), anyText), minItems: messyNumber, maxItems: messyNumber, extra: anyText },
      { requiredKeys: [] },
    ),
    anyText,
  );
  const messyCondition = fc.oneof(
    fc.record({ field: messyKey, equals: fc.oneof(fc.constantFrom<unknown>('a', 'yes', true, 1, ''), anyText), in: fc.oneof(fc.array(fc.oneof(fc.constantFrom<unknown>('a', 'b', null), anyText), { maxLength: 4 }), anyText) }, { requiredKeys: [] }),
    anyText,
  );
  const messyField = fc.oneof(
    fc.record(
      { key: messyKey, type: messyType, label: anyText, required: fc.oneof(fc.boolean(), anyText), help: anyText, placeholder: anyText, options: messyOptions, validation: messyValidation, visibleIf: messyCondition, junk: anyText },
      { requiredKeys: [] },
    ),
    anyText,
  );
  return fc.oneof(
    fc.record({ title: anyText, description: anyText, fields: fc.oneof(fc.array(messyField, { maxLength: 10 }), anyText) }, { requiredKeys: [] }),
    fc.anything(),
  );
})();

/** True when no string in the value has a character the server removes. */
export function isCleanJson(value: unknown): boolean {
  if (typeof value === 'string') return cleanText(value, true) === value && cleanText(value, false) === value;
  if (Array.isArray(value)) return value.every(isCleanJson);
  if (value && typeof value === 'object') return Object.values(value).every(isCleanJson);
  return true;
}
