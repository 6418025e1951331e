/**
 * Checks a form schema draft as a client sent it. Errors block check-in, sign-off and publish;
 * warnings point at things that are ignored or can never happen. The walk only visits known
 * properties to a fixed depth and at most LIMITS.fields fields, so any input, however large or
 * deep, is checked in bounded time; nothing in it throws (a last catch answers one error).
 */
import {
  FIELD_TYPES,
  type FieldType,
  KEY_PATTERN,
  LIMITS,
  RESERVED_KEYS,
  TYPE_TRAITS,
  VALIDATION_RULES,
  type ValidationRule,
  isFieldType,
  textCap,
} from './field-types';
import type { SchemaProblem } from './form-schema';
import { patternProblem } from './pattern-safety';
import { type JsonObject, TEXT_RULES, conditionValueProblem, isJsonObject, own, textProblem } from './schema-text';

/** Problems listed per level; past that one more problem says there were more. */
const LISTED_PER_LEVEL = 200;
/** Unknown properties reported per object. */
const UNKNOWN_REPORTED = 5;

const ROOT_PROPS = ['title', 'description', 'fields'];
const FIELD_PROPS = ['key', 'type', 'label', 'required', 'help', 'placeholder', 'options', 'validation', 'visibleIf'];
const OPTION_PROPS = ['value', 'label'];
const CONDITION_PROPS = ['field', 'equals', 'in'];

export const hasErrors = (problems: SchemaProblem[]): boolean => problems.some((p) => p.level === 'error');

export function checkFormSchema(input: unknown): SchemaProblem[] {
  const problems = new Problems();
  try {
    checkRoot(input, problems);
  } catch {
    problems.add('error', '', 'the schema could not be read');
  }
  return problems.list;
}

class Problems {
  readonly list: SchemaProblem[] = [];
  private readonly counts = { error: 0, warning: 0 };

  add(level: SchemaProblem['level'], path: string, message: string): void {
    const n = ++this.counts[level];
    if (n <= LISTED_PER_LEVEL) this.list.push({ path, level, message });
    else if (n === LISTED_PER_LEVEL + 1) this.list.push({ path: '', level, message: `more ${level}s than listed here` });
  }

  error(path: string, message: string | undefined): void {
    if (message !== undefined) this.add('error', path, message);
  }

  warning(path: string, message: string): void {
    this.add('warning', path, message);
  }
}

/** What a later condition may know about an earlier field. */
interface Source {
  type: FieldType;
  options?: string[];
}

interface Context {
  /** the index of the first field holding each string key */
  firstIndex: Map<string, number>;
  /** earlier fields with a valid, unique key and a known type */
  earlier: Map<string, Source>;
}

const join = (base: string, key: string) => (base ? `${base}.${key}` : key);

function warnUnknown(o: JsonObject, known: readonly string[], path: string, p: Problems): void {
  let reported = 0;
  for (const key of Object.keys(o)) {
    if (known.includes(key)) continue;
    if (reported++ === UNKNOWN_REPORTED) break;
    p.warning(join(path, key.slice(0, 64)), 'unknown property, ignored');
  }
}

function checkRoot(input: unknown, p: Problems): void {
  if (!isJsonObject(input)) {
    p.error('', 'must be an object with a title and a list of fields');
    return;
  }
  warnUnknown(input, ROOT_PROPS, '', p);
  p.error('title', Object.hasOwn(input, 'title') ? textProblem(input.title, TEXT_RULES.title) : 'is required');
  if (Object.hasOwn(input, 'description')) p.error('description', textProblem(input.description, TEXT_RULES.description));

  const fields = own(input, 'fields');
  if (!Array.isArray(fields)) {
    p.error('fields', Object.hasOwn(input, 'fields') ? 'must be a list of fields' : 'is required');
    return;
  }
  if (fields.length === 0) p.warning('fields', 'the form has no fields');
  if (fields.length > LIMITS.fields) p.error('fields', `must hold at most ${LIMITS.fields} fields; the rest are not checked`);
  const n = Math.min(fields.length, LIMITS.fields);

  const ctx: Context = { firstIndex: new Map(), earlier: new Map() };
  for (let i = 0; i < n; i++) {
    const f: unknown = fields[i];
    const key = isJsonObject(f) ? own(f, 'key') : undefined;
    if (typeof key === 'string' && !ctx.firstIndex.has(key)) ctx.firstIndex.set(key, i);
  }
  let collecting = 0;
  for (let i = 0; i < n; i++) {
    const f: unknown = fields[i];
    checkField(f, i, ctx, p);
    if (isJsonObject(f) && own(f, 'type') !== 'content') collecting++;
  }
  if (n > 0 && collecting === 0) p.warning('fields', 'no field collects a value');
}

function checkField(f: unknown, i: number, ctx: Context, p: Problems): void {
  const path = `fields[${i}]`;
  if (!isJsonObject(f)) {
    p.error(path, 'must be an object');
    return;
  }
  warnUnknown(f, FIELD_PROPS, path, p);

  const key = own(f, 'key');
  const keyOk = checkKey(f, key, i, ctx, p);

  const rawType = own(f, 'type');
  const type = isFieldType(rawType) ? rawType : undefined;
  if (!type) p.error(`${path}.type`, Object.hasOwn(f, 'type') ? `must be one of ${FIELD_TYPES.join(', ')}` : 'is required');

  p.error(`${path}.label`, Object.hasOwn(f, 'label') ? textProblem(f.label, TEXT_RULES.label) : 'is required');
  if (Object.hasOwn(f, 'help')) p.error(`${path}.help`, textProblem(f.help, TEXT_RULES.help));
  if (Object.hasOwn(f, 'required')) {
    if (typeof f.required !== 'boolean') p.error(`${path}.required`, 'must be true or false');
    else if (f.required && type === 'content') p.warning(`${path}.required`, 'a content field collects nothing; ignored');
  }
  if (Object.hasOwn(f, 'placeholder')) {
    const problem = textProblem(f.placeholder, TEXT_RULES.placeholder);
    p.error(`${path}.placeholder`, problem);
    if (!problem && type && !TYPE_TRAITS[type].takesPlaceholder) p.warning(`${path}.placeholder`, `is ignored for ${type} fields`);
  }
  const options = checkOptions(f, type, path, p);
  checkValidation(f, type, options, path, p);
  checkCondition(f, key, i, ctx, p);

  if (keyOk && type) ctx.earlier.set(key as string, { type, options });
}

function checkKey(f: JsonObject, key: unknown, i: number, ctx: Context, p: Problems): boolean {
  const path = `fields[${i}].key`;
  if (typeof key !== 'string') p.error(path, Object.hasOwn(f, 'key') ? 'must be a string' : 'is required');
  else if (!KEY_PATTERN.test(key)) {
    p.error(path, 'must be a lower-case letter followed by at most 63 lower-case letters, digits or underscores');
  } else if (RESERVED_KEYS.has(key)) p.error(path, 'is reserved: it names a built-in property of JavaScript objects');
  else if (ctx.firstIndex.get(key) !== i) p.error(path, `duplicates fields[${ctx.firstIndex.get(key)}].key`);
  else return true;
  return false;
}

/** The option values of a field that takes options, as far as they are valid. */
function checkOptions(f: JsonObject, type: FieldType | undefined, path: string, p: Problems): string[] | undefined {
  const given = Object.hasOwn(f, 'options');
  if (!type) return undefined;
  if (!TYPE_TRAITS[type].takesOptions) {
    if (given) p.warning(`${path}.options`, `is ignored for ${type} fields`);
    return undefined;
  }
  const options = own(f, 'options');
  if (!Array.isArray(options) || options.length === 0) {
    p.error(`${path}.options`, given && !Array.isArray(options) ? 'must be a list of { value, label }' : `a ${type} field needs at least one option`);
    return undefined;
  }
  if (options.length > LIMITS.options) p.error(`${path}.options`, `must hold at most ${LIMITS.options} options`);
  const values: string[] = [];
  const firstAt = new Map<string, number>();
  for (let j = 0; j < Math.min(options.length, LIMITS.options); j++) {
    const o: unknown = options[j];
    const at = `${path}.options[${j}]`;
    if (!isJsonObject(o)) {
      p.error(at, 'must be an object { value, label }');
      continue;
    }
    warnUnknown(o, OPTION_PROPS, at, p);
    p.error(`${at}.label`, Object.hasOwn(o, 'label') ? textProblem(o.label, TEXT_RULES.optionLabel) : 'is required');
    const value = own(o, 'value');
    const problem = Object.hasOwn(o, 'value') ? textProblem(value, TEXT_RULES.optionValue) : 'is required';
    if (problem) p.error(`${at}.value`, problem);
    else if (firstAt.has(value as string)) p.error(`${at}.value`, `duplicates options[${firstAt.get(value as string)}].value`);
    else {
      firstAt.set(value as string, j);
      values.push(value as string);
    }
  }
  return values;
}

function ruleValueProblem(rule: ValidationRule, value: unknown): string | undefined {
  switch (rule) {
    case 'min':
    case 'max':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a finite number';
    case 'integer':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'pattern':
      return patternProblem(value);
    default:
      return Number.isSafeInteger(value) && (value as number) >= 0 ? undefined : 'must be a whole number, 0 or more';
  }
}

function checkValidation(f: JsonObject, type: FieldType | undefined, options: string[] | undefined, path: string, p: Problems): void {
  if (!Object.hasOwn(f, 'validation')) return;
  const at = `${path}.validation`;
  const v = f.validation;
  if (!isJsonObject(v)) {
    p.error(at, 'must be an object');
    return;
  }
  warnUnknown(v, VALIDATION_RULES, at, p);
  if (!type) return;
  const ok: Partial<Record<ValidationRule, unknown>> = {};
  for (const rule of VALIDATION_RULES) {
    if (!Object.hasOwn(v, rule)) continue;
    if (!TYPE_TRAITS[type].rules.includes(rule)) {
      p.warning(`${at}.${rule}`, `does not apply to ${type} fields; ignored`);
      continue;
    }
    const problem = ruleValueProblem(rule, v[rule]);
    if (problem) p.error(`${at}.${rule}`, problem);
    else ok[rule] = v[rule];
  }
  const { min, max, minLength, maxLength, minItems, maxItems } = ok as Record<string, number | undefined>;
  if (min !== undefined && max !== undefined) {
    if (min > max) p.error(`${at}.min`, 'must not be greater than max');
    else if (ok.integer === true && Math.ceil(min) > Math.floor(max)) p.error(at, 'no whole number lies between min and max');
  }
  if (TYPE_TRAITS[type].value === 'text') {
    const cap = textCap(type, { pattern: ok.pattern as string | undefined });
    const withPattern = ok.pattern === undefined ? '' : ' with a pattern';
    if (maxLength !== undefined && maxLength > cap) p.error(`${at}.maxLength`, `must be at most ${cap} for a ${type} field${withPattern}`);
    if (minLength !== undefined && minLength > Math.min(cap, maxLength ?? cap)) {
      p.error(`${at}.minLength`, maxLength !== undefined && maxLength < minLength ? 'must not be greater than maxLength' : `must be at most ${cap} for a ${type} field${withPattern}`);
    }
  }
  const itemCap = type === 'file' ? LIMITS.files : type === 'multiselect' ? options?.length : undefined;
  const capName = type === 'file' ? 'the number of files a field holds' : 'the number of options';
  if (itemCap !== undefined) {
    if (type === 'file' && maxItems !== undefined && maxItems > itemCap) p.error(`${at}.maxItems`, `must be at most ${itemCap} (${capName})`);
    if (minItems !== undefined && minItems > itemCap) p.error(`${at}.minItems`, `must be at most ${itemCap} (${capName})`);
  }
  if (minItems !== undefined && maxItems !== undefined && minItems > maxItems) p.error(`${at}.minItems`, 'must not be greater than maxItems');
}

function checkCondition(f: JsonObject, key: unknown, i: number, ctx: Context, p: Problems): void {
  if (!Object.hasOwn(f, 'visibleIf')) return;
  const at = `fields[${i}].visibleIf`;
  const c = f.visibleIf;
  if (!isJsonObject(c)) {
    p.error(at, 'must be an object { field, equals } or { field, in }');
    return;
  }
  warnUnknown(c, CONDITION_PROPS, at, p);
  const source = conditionSource(c, key, i, ctx, p);
  const hasEquals = Object.hasOwn(c, 'equals');
  const hasIn = Object.hasOwn(c, 'in');
  if (hasEquals && hasIn) p.error(at, 'must give either equals or in, not both');
  else if (!hasEquals && !hasIn) p.error(at, 'must give equals or in');
  else if (hasEquals) {
    const problem = conditionValueProblem(c.equals);
    p.error(`${at}.equals`, problem);
    if (!problem && source && !canHold(source, c.equals)) p.warning(`${at}.equals`, `is not a value ${c.field} can hold; the field would never show`);
  } else {
    const list = c.in;
    if (!Array.isArray(list) || list.length === 0) p.error(`${at}.in`, 'must be a non-empty list of values');
    else if (list.length > LIMITS.conditionValues) p.error(`${at}.in`, `must hold at most ${LIMITS.conditionValues} values`);
    else {
      for (let j = 0; j < list.length; j++) {
        const problem = conditionValueProblem(list[j]);
        p.error(`${at}.in[${j}]`, problem);
        if (!problem && source && !canHold(source, list[j])) p.warning(`${at}.in[${j}]`, `is not a value ${c.field} can hold`);
      }
    }
  }
}

function conditionSource(c: JsonObject, key: unknown, i: number, ctx: Context, p: Problems): Source | undefined {
  const at = `fields[${i}].visibleIf.field`;
  const name = own(c, 'field');
  if (typeof name !== 'string') {
    p.error(at, Object.hasOwn(c, 'field') ? 'must be the key of an earlier field' : 'is required');
    return undefined;
  }
  if (name === key) {
    p.error(at, 'a field cannot depend on itself');
    return undefined;
  }
  const index = ctx.firstIndex.get(name);
  if (index === undefined) p.error(at, 'names no field of this form');
  else if (index > i) p.error(at, `names a later field (fields[${index}]); a condition may only name a field above it`);
  const source = index !== undefined && index < i ? ctx.earlier.get(name) : undefined;
  if (source?.type === 'content') p.error(at, 'names a content field, which holds no value');
  else if (source?.type === 'file') p.error(at, 'names a file field; conditions on files are not supported');
  else return source;
  return undefined;
}

const DATE_SHAPE = /^\d{4}-\d{2}-\d{2}$/;

/** Whether a valid submission could give `source` the value `value` (for multiselect: as one of its choices). */
function canHold(source: Source, value: unknown): boolean {
  switch (TYPE_TRAITS[source.type].value) {
    case 'choice':
    case 'choices':
      return typeof value === 'string' && (source.options === undefined || source.options.includes(value));
    case 'boolean':
      return typeof value === 'boolean';
    case 'number':
      return typeof value === 'number';
    case 'date':
      return typeof value === 'string' && DATE_SHAPE.test(value);
    default:
      return typeof value === 'string';
  }
}
