/**
 * The field types of a form schema and what each one takes: its value shape, whether it needs
 * options, which `validation` rules apply, its placeholder, and the bounds every schema and every
 * submission stays within. docs/forms.md "Form schema" explains each choice.
 */

export const FIELD_TYPES = [
  'text',
  'textarea',
  'email',
  'tel',
  'number',
  'date',
  'select',
  'radio',
  'multiselect',
  'checkbox',
  'file',
  'hidden',
  'content',
] as const;

export type FieldType = (typeof FIELD_TYPES)[number];

export const VALIDATION_RULES = ['min', 'max', 'minLength', 'maxLength', 'pattern', 'integer', 'minItems', 'maxItems'] as const;
export type ValidationRule = (typeof VALIDATION_RULES)[number];

/** What a field's value is: `none` for display-only content, which is never part of a submission. */
export type ValueShape = 'text' | 'number' | 'date' | 'choice' | 'choices' | 'boolean' | 'files' | 'none';

export interface TypeTraits {
  value: ValueShape;
  /** select, radio and multiselect pick among `options`; other types ignore them. */
  takesOptions: boolean;
  takesPlaceholder: boolean;
  rules: readonly ValidationRule[];
  /** Text types: the most characters a value may have, whatever `validation.maxLength` says. */
  maxChars?: number;
  /** Single-line text loses tab, CR and LF with the other control characters; a textarea keeps them. */
  multiline?: boolean;
}

const TEXT_RULES = ['minLength', 'maxLength', 'pattern'] as const;

export const TYPE_TRAITS: Readonly<Record<FieldType, TypeTraits>> = {
  text: { value: 'text', takesOptions: false, takesPlaceholder: true, rules: TEXT_RULES, maxChars: 1_000 },
  textarea: { value: 'text', takesOptions: false, takesPlaceholder: true, rules: TEXT_RULES, maxChars: 10_000, multiline: true },
  // RFC 5321 caps a forward path at 256 octets including the angle brackets.
  email: { value: 'text', takesOptions: false, takesPlaceholder: true, rules: TEXT_RULES, maxChars: 254 },
  tel: { value: 'text', takesOptions: false, takesPlaceholder: true, rules: TEXT_RULES, maxChars: 40 },
  hidden: { value: 'text', takesOptions: false, takesPlaceholder: false, rules: TEXT_RULES, maxChars: 1_000 },
  number: { value: 'number', takesOptions: false, takesPlaceholder: true, rules: ['min', 'max', 'integer'] },
  date: { value: 'date', takesOptions: false, takesPlaceholder: false, rules: [] },
  select: { value: 'choice', takesOptions: true, takesPlaceholder: true, rules: [] },
  radio: { value: 'choice', takesOptions: true, takesPlaceholder: false, rules: [] },
  multiselect: { value: 'choices', takesOptions: true, takesPlaceholder: false, rules: ['minItems', 'maxItems'] },
  checkbox: { value: 'boolean', takesOptions: false, takesPlaceholder: false, rules: [] },
  file: { value: 'files', takesOptions: false, takesPlaceholder: false, rules: ['minItems', 'maxItems'] },
  content: { value: 'none', takesOptions: false, takesPlaceholder: false, rules: [] },
};

export const isFieldType = (value: unknown): value is FieldType =>
  typeof value === 'string' && (FIELD_TYPES as readonly string[]).includes(value);

export const KEY_PATTERN = /^[a-z][a-z0-9_]{0,63}$/;

/**
 * Keys Object.prototype already has (of those the key pattern allows, only `constructor`): code
 * that reads `data[key]` on a plain object, ajv without `ownProperties` among it, would find the
 * inherited value when the answer is missing.
 */
export const RESERVED_KEYS: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype).filter((name) => KEY_PATTERN.test(name)));

export const LIMITS = {
  fields: 200,
  title: 200,
  description: 2_000,
  label: 500,
  help: 2_000,
  placeholder: 200,
  options: 500,
  optionValue: 200,
  optionLabel: 500,
  /** Values a `visibleIf.in` list may hold. */
  conditionValues: 100,
  pattern: 200,
  /** A value checked by a pattern has at most this many characters: the pattern safety check counts on it. */
  patternedValue: 1_000,
  /** Document ids a file field holds. */
  files: 20,
} as const;

/** The most characters a text field's value may have: its type's cap, lowered by a pattern and by maxLength. */
export function textCap(type: FieldType, validation?: { maxLength?: number; pattern?: string }): number {
  let cap = TYPE_TRAITS[type].maxChars ?? 0;
  if (validation?.pattern !== undefined) cap = Math.min(cap, LIMITS.patternedValue);
  if (validation?.maxLength !== undefined) cap = Math.min(cap, validation.maxLength);
  return cap;
}
