/**
 * Repair on read: whatever JSON a stored draft holds (malformed, partial, from an older format),
 * the nearest schema that checkFormSchema accepts without errors. The rules, in docs/forms.md
 * "Form schema", keep every question an author wrote where they can (an unknown type becomes
 * text, an invalid key is slugified) and drop what cannot be made valid.
 */
import { type FieldType, KEY_PATTERN, LIMITS, RESERVED_KEYS, TYPE_TRAITS, isFieldType, textCap } from './field-types';
import type { ConditionValue, FieldOption, FieldValidation, FormField, FormSchema, VisibleIf } from './form-schema';
import { patternProblem } from './pattern-safety';
import { type JsonObject, TEXT_RULES, conditionValueProblem, isJsonObject, own, repairText } from './schema-text';
import { cutToCodePoints } from './text-cleaning';

export const UNTITLED = 'Untitled form';

/** Entries of a list looked at, past the ones kept: junk cannot make a repair slow. */
const SCAN_FACTOR = 10;

export function repairFormSchema(raw: unknown): FormSchema {
  try {
    return repairRoot(raw);
  } catch {
    return { title: UNTITLED, fields: [] };
  }
}

function repairRoot(raw: unknown): FormSchema {
  if (!isJsonObject(raw)) return { title: UNTITLED, fields: [] };
  const title = repairText(own(raw, 'title'), TEXT_RULES.title) ?? UNTITLED;
  const description = repairText(own(raw, 'description'), TEXT_RULES.description);
  const list = own(raw, 'fields');
  const fields = Array.isArray(list) ? repairFields(list) : [];
  return description === undefined ? { title, fields } : { title, description, fields };
}

interface Earlier {
  /** by the key as stored, so a condition naming a key that had to be slugified still finds it */
  byStoredKey: Map<string, FormField>;
  byKey: Map<string, FormField>;
}

function repairFields(list: unknown[]): FormField[] {
  const fields: FormField[] = [];
  const earlier: Earlier = { byStoredKey: new Map(), byKey: new Map() };
  const scan = Math.min(list.length, SCAN_FACTOR * LIMITS.fields);
  for (let i = 0; i < scan && fields.length < LIMITS.fields; i++) {
    const f: unknown = list[i];
    if (!isJsonObject(f)) continue;
    const field = repairField(f, fields.length, earlier);
    fields.push(field);
    const stored = own(f, 'key');
    if (typeof stored === 'string' && !earlier.byStoredKey.has(stored)) earlier.byStoredKey.set(stored, field);
    earlier.byKey.set(field.key, field);
  }
  return fields;
}

function repairField(f: JsonObject, index: number, earlier: Earlier): FormField {
  const label = repairText(own(f, 'label'), TEXT_RULES.label);
  const key = uniqueKey(keyBase(own(f, 'key'), label, index), earlier.byKey);
  let type = repairType(own(f, 'type'));
  let options = TYPE_TRAITS[type].takesOptions ? repairOptions(own(f, 'options')) : undefined;
  if (options?.length === 0) {
    // A choice without options cannot be answered; as text the question still can.
    type = 'text';
    options = undefined;
  }
  const traits = TYPE_TRAITS[type];
  const storedKey = own(f, 'key');
  // A stored key that had to be slugified ("First Name") reads better as the label than its slug.
  const keyAsLabel = typeof storedKey === 'string' && !KEY_PATTERN.test(storedKey) ? repairText(storedKey, TEXT_RULES.label) : undefined;
  const field: FormField = { key, type, label: label ?? keyAsLabel ?? labelFromKey(key) };
  if (own(f, 'required') === true && type !== 'content') field.required = true;
  const help = repairText(own(f, 'help'), TEXT_RULES.help);
  if (help !== undefined) field.help = help;
  const placeholder = traits.takesPlaceholder ? repairText(own(f, 'placeholder'), TEXT_RULES.placeholder) : undefined;
  if (placeholder !== undefined) field.placeholder = placeholder;
  if (options) field.options = options;
  const validation = repairValidation(own(f, 'validation'), type, options);
  if (validation) field.validation = validation;
  const visibleIf = repairCondition(own(f, 'visibleIf'), earlier);
  if (visibleIf) field.visibleIf = visibleIf;
  return field;
}

function repairType(raw: unknown): FieldType {
  const name = typeof raw === 'string' ? raw.trim().toLowerCase() : '';
  return isFieldType(name) ? name : 'text';
}

/** A key from the stored key, else from the label, else from the position; lower-case slug. */
function keyBase(raw: unknown, label: string | undefined, index: number): string {
  if (typeof raw === 'string' && KEY_PATTERN.test(raw)) return raw;
  const fromKey = typeof raw === 'string' || typeof raw === 'number' ? slug(String(raw)) : '';
  return fromKey || (label ? slug(label) : '') || `field_${index + 1}`;
}

export function slug(text: string): string {
  const s = cutToCodePoints(text, 200)
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  if (s === '') return '';
  return (/^[a-z]/.test(s) ? s : `f_${s}`).slice(0, 64).replace(/_+$/, '');
}

function uniqueKey(base: string, taken: Map<string, unknown>): string {
  if (!taken.has(base) && !RESERVED_KEYS.has(base)) return base;
  for (let n = 2; ; n++) {
    const suffix = `_${n}`;
    const key = base.slice(0, 64 - suffix.length).replace(/_+$/, '') + suffix;
    if (!taken.has(key)) return key;
  }
}

const labelFromKey = (key: string) => {
  const words = key.replace(/_+/g, ' ').trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/** Options as `{ value, label }`; a bare string or number is both. Duplicate values keep the first. */
function repairOptions(raw: unknown): FieldOption[] {
  if (!Array.isArray(raw)) return [];
  const options: FieldOption[] = [];
  const seen = new Set<string>();
  const scan = Math.min(raw.length, SCAN_FACTOR * LIMITS.options);
  for (let j = 0; j < scan && options.length < LIMITS.options; j++) {
    const o: unknown = raw[j];
    const rawValue = isJsonObject(o) ? own(o, 'value') : o;
    const value = repairText(scalarText(rawValue), TEXT_RULES.optionValue);
    if (value === undefined || seen.has(value)) continue;
    seen.add(value);
    const label = isJsonObject(o) ? repairText(own(o, 'label'), TEXT_RULES.optionLabel) : undefined;
    options.push({ value, label: label ?? value });
  }
  return options;
}

const scalarText = (v: unknown): unknown => (typeof v === 'number' && Number.isFinite(v) ? String(v) : v);

const finite = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const count = (v: unknown): number | undefined => (Number.isSafeInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

/**
 * The rules that apply to the type and have valid values. Upper bounds are kept (they protect
 * storage) and a lower bound that contradicts one is dropped.
 */
function repairValidation(raw: unknown, type: FieldType, options: FieldOption[] | undefined): FieldValidation | undefined {
  if (!isJsonObject(raw)) return undefined;
  const v: FieldValidation = {};
  switch (TYPE_TRAITS[type].value) {
    case 'number': {
      const max = finite(own(raw, 'max'));
      let min = finite(own(raw, 'min'));
      const integer = own(raw, 'integer') === true;
      if (min !== undefined && max !== undefined && (min > max || (integer && Math.ceil(min) > Math.floor(max)))) min = undefined;
      Object.assign(v, defined({ min, max, integer: integer || undefined }));
      break;
    }
    case 'text': {
      const rawPattern = own(raw, 'pattern');
      const pattern = patternProblem(rawPattern) === undefined ? (rawPattern as string) : undefined;
      const cap = textCap(type, { pattern });
      const maxLength = count(own(raw, 'maxLength'));
      const upper = maxLength === undefined ? undefined : Math.min(maxLength, cap);
      let minLength = count(own(raw, 'minLength'));
      if (minLength !== undefined && minLength > (upper ?? cap)) minLength = undefined;
      Object.assign(v, defined({ minLength, maxLength: upper, pattern }));
      break;
    }
    case 'choices':
    case 'files': {
      const cap = type === 'file' ? LIMITS.files : (options?.length ?? 0);
      const rawMax = count(own(raw, 'maxItems'));
      const maxItems = type === 'file' && rawMax !== undefined ? Math.min(rawMax, cap) : rawMax;
      let minItems = count(own(raw, 'minItems'));
      if (minItems !== undefined && minItems > Math.min(cap, maxItems ?? cap)) minItems = undefined;
      Object.assign(v, defined({ minItems, maxItems }));
      break;
    }
    default:
      break;
  }
  return Object.keys(v).length > 0 ? v : undefined;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, value]) => value !== undefined)) as Partial<T>;
}

function repairCondition(raw: unknown, earlier: Earlier): VisibleIf | undefined {
  if (!isJsonObject(raw)) return undefined;
  const name = own(raw, 'field');
  if (typeof name !== 'string') return undefined;
  const source = earlier.byStoredKey.get(name) ?? earlier.byKey.get(name);
  if (!source || source.type === 'content' || source.type === 'file') return undefined;
  const equals = conditionValue(own(raw, 'equals'));
  if (equals !== undefined) return { field: source.key, equals };
  const list = own(raw, 'in');
  if (!Array.isArray(list)) return undefined;
  const values: ConditionValue[] = [];
  const scan = Math.min(list.length, SCAN_FACTOR * LIMITS.conditionValues);
  for (let j = 0; j < scan && values.length < LIMITS.conditionValues; j++) {
    const value = conditionValue(list[j]);
    if (value !== undefined) values.push(value);
  }
  return values.length > 0 ? { field: source.key, in: values } : undefined;
}

function conditionValue(raw: unknown): ConditionValue | undefined {
  const value = typeof raw === 'string' ? repairText(raw, TEXT_RULES.conditionValue) : raw;
  return value !== undefined && conditionValueProblem(value) === undefined ? (value as ConditionValue) : undefined;
}
