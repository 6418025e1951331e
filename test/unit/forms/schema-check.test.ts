import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES } from '../../../domain/forms/field-types';
import type { SchemaProblem } from '../../../domain/forms/form-schema';
import { checkFormSchema, hasErrors } from '../../../domain/forms/schema-check';
import { validSchema } from './arbitraries';

type Json = Record<string, unknown>;

const form = (...fields: unknown[]): Json => ({ title: 'Contact', fields });
const text = (key: string, extra: Json = {}): Json => ({ key, type: 'text', label: key.toUpperCase(), ...extra });
const select = (key: string, extra: Json = {}): Json => ({
  key,
  type: 'select',
  label: key,
  options: [
    { value: 'a', label: 'A' },
    { value: 'b', label: 'B' },
  ],
  ...extra,
});

const errors = (input: unknown) => checkFormSchema(input).filter((p) => p.level === 'error');
const warnings = (input: unknown) => checkFormSchema(input).filter((p) => p.level === 'warning');
const at = (problems: SchemaProblem[], path: string) => problems.filter((p) => p.path === path).map((p) => p.message);

describe('checkFormSchema: a valid schema', () => {
  it('has no problems', () => {
    expect(checkFormSchema(form(text('name', { required: true }), select('colour')))).toEqual([]);
  });

  it('accepts every field type', () => {
    const fields = FIELD_TYPES.map((type) => ({
      key: `f_${type}`,
      type,
      label: type,
      ...(['select', 'radio', 'multiselect'].includes(type) ? { options: [{ value: 'x', label: 'X' }] } : {}),
    }));
    expect(errors(form(...fields))).toEqual([]);
  });

  it('generated valid schemas have no errors (property)', () => {
    fc.assert(fc.property(validSchema, (schema) => {
      expect(errors(schema)).toEqual([]);
    }), { numRuns: 300 });
  });

  it('hasErrors is true only when an error is listed', () => {
    expect(hasErrors([])).toBe(false);
    expect(hasErrors([{ path: 'fields', level: 'warning', message: 'x' }])).toBe(false);
    expect(hasErrors([{ path: 'title', level: 'error', message: 'x' }])).toBe(true);
  });
});

describe('checkFormSchema: the form', () => {
  it.each([null, 5, 'x', [], undefined, true])('%j is not a schema: error at the root', (input) => {
    expect(errors(input)).toEqual([{ path: '', level: 'error', message: 'must be an object with a title and a list of fields' }]);
  });

  it('a missing, blank, non-string, too long or controlled title is an error', () => {
    expect(at(errors({ fields: [] }), 'title')).toEqual(['is required']);
    expect(at(errors({ title: '  ', fields: [] }), 'title')).toEqual(['must not be blank']);
    expect(at(errors({ title: 3, fields: [] }), 'title')).toEqual(['must be a string']);
    expect(at(errors({ title: 'x'.repeat(201), fields: [] }), 'title')).toEqual(['must be at most 200 characters']);
    expect(errors({ title: 'é'.repeat(200), fields: [] })).toEqual([]);
    expect(at(errors({ title: 'a\nb', fields: [] }), 'title')).toEqual(['must not contain control characters or line breaks']);
    expect(at(errors({ title: 'a\u0085b', fields: [] }), 'title')).toHaveLength(1);
    expect(at(errors({ title: 'a\ud800b', fields: [] }), 'title')).toHaveLength(1);
  });

  it('a description may have line breaks, but no other control characters, and at most 2,000 characters', () => {
    expect(errors({ title: 't', description: 'a\n\tb\r\n', fields: [] })).toEqual([]);
    expect(at(errors({ title: 't', description: 'a\u0000', fields: [] }), 'description')).toHaveLength(1);
    expect(at(errors({ title: 't', description: 'x'.repeat(2001), fields: [] }), 'description')).toHaveLength(1);
    expect(at(errors({ title: 't', description: null, fields: [] }), 'description')).toEqual(['must be a string']);
  });

  it('fields must be a list; an empty one is a warning', () => {
    expect(at(errors({ title: 't' }), 'fields')).toEqual(['is required']);
    expect(at(errors({ title: 't', fields: {} }), 'fields')).toEqual(['must be a list of fields']);
    expect(at(warnings({ title: 't', fields: [] }), 'fields')).toEqual(['the form has no fields']);
  });

  it('more than 200 fields is an error, and only the first 200 are checked', () => {
    const fields = Array.from({ length: 250 }, (_, i) => text(`f${i}`));
    fields[230] = { key: 'BAD' };
    const problems = errors({ title: 't', fields });
    expect(problems.map((p) => p.path)).toEqual(['fields']);
  });

  it('unknown properties are warnings', () => {
    expect(warnings({ title: 't', fields: [text('a', { colour: 'red' })], version: 2 })).toEqual([
      { path: 'version', level: 'warning', message: 'unknown property, ignored' },
      { path: 'fields[0].colour', level: 'warning', message: 'unknown property, ignored' },
    ]);
  });

  it('a form whose fields are all content collects nothing: a warning', () => {
    expect(at(warnings(form({ key: 'intro', type: 'content', label: 'Hello' })), 'fields')).toEqual(['no field collects a value']);
  });
});

describe('checkFormSchema: keys', () => {
  it.each(['a', 'first_name', 'x1', 'constructor_', `a${'b'.repeat(63)}`])('%s is a valid key', (key) => {
    expect(errors(form(text(key)))).toEqual([]);
  });

  it('"constructor" is reserved: clients reading data[key] on a plain object would find the inherited one', () => {
    expect(at(errors(form(text('constructor'))), 'fields[0].key')).toEqual(['is reserved: it names a built-in property of JavaScript objects']);
  });

  it.each(['A', 'First', '1st', '_a', 'a-b', 'a b', '', `a${'b'.repeat(64)}`, 'ä'])('%j is not a valid key', (key) => {
    expect(at(errors(form(text(key))), 'fields[0].key')).toEqual([
      'must be a lower-case letter followed by at most 63 lower-case letters, digits or underscores',
    ]);
  });

  it('a missing or non-string key is an error', () => {
    expect(at(errors(form({ type: 'text', label: 'x' })), 'fields[0].key')).toEqual(['is required']);
    expect(at(errors(form({ key: 5, type: 'text', label: 'x' })), 'fields[0].key')).toEqual(['must be a string']);
  });

  it('a duplicate key is an error on the later field, naming the first', () => {
    expect(errors(form(text('a'), text('b'), text('a')))).toEqual([
      { path: 'fields[2].key', level: 'error', message: 'duplicates fields[0].key' },
    ]);
  });

  it('a field that is not an object is an error', () => {
    expect(errors(form(text('a'), 'b', null))).toEqual([
      { path: 'fields[1]', level: 'error', message: 'must be an object' },
      { path: 'fields[2]', level: 'error', message: 'must be an object' },
    ]);
  });
});

describe('checkFormSchema: type, label, help, placeholder, required', () => {
  it('an unknown or missing type is an error', () => {
    expect(at(errors(form(text('a', { type: 'signature' }))), 'fields[0].type')).toEqual([`must be one of ${FIELD_TYPES.join(', ')}`]);
    expect(at(errors(form({ key: 'a', label: 'A' })), 'fields[0].type')).toEqual(['is required']);
    expect(at(errors(form(text('a', { type: 'Text' }))), 'fields[0].type')).toHaveLength(1);
  });

  it('a missing, blank or too long label is an error', () => {
    expect(at(errors(form({ key: 'a', type: 'text' })), 'fields[0].label')).toEqual(['is required']);
    expect(at(errors(form(text('a', { label: ' ' }))), 'fields[0].label')).toEqual(['must not be blank']);
    expect(at(errors(form(text('a', { label: 'x'.repeat(501) }))), 'fields[0].label')).toEqual(['must be at most 500 characters']);
    expect(errors(form(text('a', { label: 'x'.repeat(500) })))).toEqual([]);
  });

  it('help may span lines up to 2,000 characters', () => {
    expect(errors(form(text('a', { help: 'line\nline' })))).toEqual([]);
    expect(at(errors(form(text('a', { help: 'x'.repeat(2001) }))), 'fields[0].help')).toHaveLength(1);
  });

  it('a placeholder is checked, and a warning on types that show none', () => {
    expect(at(errors(form(text('a', { placeholder: 'x'.repeat(201) }))), 'fields[0].placeholder')).toHaveLength(1);
    expect(at(warnings(form({ key: 'ok', type: 'checkbox', label: 'OK', placeholder: 'tick' })), 'fields[0].placeholder')).toEqual([
      'is ignored for checkbox fields',
    ]);
  });

  it('required must be a boolean; on content it is ignored with a warning', () => {
    expect(at(errors(form(text('a', { required: 'yes' }))), 'fields[0].required')).toEqual(['must be true or false']);
    expect(at(warnings(form({ key: 'c', type: 'content', label: 'Hi', required: true }, text('a'))), 'fields[0].required')).toEqual([
      'a content field collects nothing; ignored',
    ]);
  });
});

describe('checkFormSchema: options', () => {
  it.each(['select', 'radio', 'multiselect'])('a %s without options is an error', (type) => {
    expect(at(errors(form({ key: 'a', type, label: 'A' })), 'fields[0].options')).toEqual([`a ${type} field needs at least one option`]);
    expect(at(errors(form({ key: 'a', type, label: 'A', options: [] })), 'fields[0].options')).toEqual([`a ${type} field needs at least one option`]);
    expect(at(errors(form({ key: 'a', type, label: 'A', options: 'a,b' })), 'fields[0].options')).toEqual(['must be a list of { value, label }']);
  });

  it('options on a type that ignores them are a warning', () => {
    expect(at(warnings(form(text('a', { options: [{ value: 'x', label: 'X' }] }))), 'fields[0].options')).toEqual(['is ignored for text fields']);
  });

  it('each option needs a non-blank value and label; values are unique', () => {
    const problems = errors(
      form(select('s', { options: ['a', { value: '', label: 'E' }, { value: 'a', label: 'A' }, { value: 'b' }, { value: 'a', label: 'again' }, { value: 1, label: 'one' }] })),
    );
    expect(problems).toEqual([
      { path: 'fields[0].options[0]', level: 'error', message: 'must be an object { value, label }' },
      { path: 'fields[0].options[1].value', level: 'error', message: 'must not be blank' },
      { path: 'fields[0].options[3].label', level: 'error', message: 'is required' },
      { path: 'fields[0].options[4].value', level: 'error', message: 'duplicates options[2].value' },
      { path: 'fields[0].options[5].value', level: 'error', message: 'must be a string' },
    ]);
  });

  it('at most 500 options', () => {
    const options = Array.from({ length: 501 }, (_, i) => ({ value: `v${i}`, label: `V${i}` }));
    expect(at(errors(form(select('s', { options }))), 'fields[0].options')).toEqual(['must hold at most 500 options']);
  });
});

describe('checkFormSchema: validation rules', () => {
  const rules = (type: string, validation: unknown, extra: Json = {}) => form({ key: 'f', type, label: 'F', ...extra, validation });

  it('validation must be an object; unknown rules and rules of other types are warnings', () => {
    expect(at(errors(rules('text', [1])), 'fields[0].validation')).toEqual(['must be an object']);
    expect(warnings(rules('text', { maxLenght: 3 }))).toEqual([{ path: 'fields[0].validation.maxLenght', level: 'warning', message: 'unknown property, ignored' }]);
    expect(warnings(rules('number', { pattern: '\\d+' }))).toEqual([
      { path: 'fields[0].validation.pattern', level: 'warning', message: 'does not apply to number fields; ignored' },
    ]);
    expect(at(warnings(rules('date', { min: 3 })), 'fields[0].validation.min')).toHaveLength(1);
  });

  it('number: min and max are finite numbers, min not above max, and integer leaves a whole number between them', () => {
    expect(errors(rules('number', { min: 0, max: 10, integer: true }))).toEqual([]);
    expect(at(errors(rules('number', { min: '1' })), 'fields[0].validation.min')).toEqual(['must be a finite number']);
    expect(at(errors(rules('number', { min: 5, max: 4 })), 'fields[0].validation.min')).toEqual(['must not be greater than max']);
    expect(at(errors(rules('number', { min: 0.2, max: 0.8, integer: true })), 'fields[0].validation')).toEqual(['no whole number lies between min and max']);
    expect(at(errors(rules('number', { integer: 'yes' })), 'fields[0].validation.integer')).toEqual(['must be true or false']);
  });

  it('text: lengths are whole numbers within the type cap; minLength not above maxLength', () => {
    expect(errors(rules('textarea', { maxLength: 10_000 }))).toEqual([]);
    expect(at(errors(rules('text', { maxLength: 1001 })), 'fields[0].validation.maxLength')).toEqual(['must be at most 1000 for a text field']);
    expect(at(errors(rules('email', { maxLength: 255 })), 'fields[0].validation.maxLength')).toEqual(['must be at most 254 for a email field']);
    expect(at(errors(rules('tel', { minLength: 41 })), 'fields[0].validation.minLength')).toEqual(['must be at most 40 for a tel field']);
    expect(at(errors(rules('text', { minLength: 5, maxLength: 4 })), 'fields[0].validation.minLength')).toEqual(['must not be greater than maxLength']);
    expect(at(errors(rules('text', { minLength: -1 })), 'fields[0].validation.minLength')).toEqual(['must be a whole number, 0 or more']);
    expect(at(errors(rules('text', { maxLength: 2.5 })), 'fields[0].validation.maxLength')).toEqual(['must be a whole number, 0 or more']);
  });

  it('a field with a pattern holds at most 1,000 characters', () => {
    expect(at(errors(rules('textarea', { pattern: '[a-z ]*', maxLength: 1001 })), 'fields[0].validation.maxLength')).toEqual([
      'must be at most 1000 for a textarea field with a pattern',
    ]);
  });

  it('a pattern that does not compile or can backtrack catastrophically is an error', () => {
    expect(at(errors(rules('text', { pattern: '(' })), 'fields[0].validation.pattern')[0]).toMatch(/^does not compile/);
    expect(at(errors(rules('text', { pattern: '(a+)+' })), 'fields[0].validation.pattern')[0]).toMatch(/^may backtrack catastrophically/);
    expect(at(errors(rules('text', { pattern: 'x'.repeat(201) })), 'fields[0].validation.pattern')).toEqual(['must be at most 200 characters']);
  });

  it('multiselect: minItems within the options; file: at most 20 files; minItems not above maxItems', () => {
    const two = { options: [{ value: 'a', label: 'A' }, { value: 'b', label: 'B' }] };
    expect(errors(rules('multiselect', { minItems: 2, maxItems: 5 }, two))).toEqual([]);
    expect(at(errors(rules('multiselect', { minItems: 3 }, two)), 'fields[0].validation.minItems')).toEqual(['must be at most 2 (the number of options)']);
    expect(at(errors(rules('file', { maxItems: 21 })), 'fields[0].validation.maxItems')).toEqual(['must be at most 20 (the number of files a field holds)']);
    expect(at(errors(rules('file', { minItems: 3, maxItems: 2 })), 'fields[0].validation.minItems')).toEqual(['must not be greater than maxItems']);
  });
});

describe('checkFormSchema: visibleIf', () => {
  const when = (visibleIf: unknown, ...before: Json[]) => form(...before, text('q', { visibleIf }));
  const path = (n: number, rest = '') => `fields[${n}].visibleIf${rest}`;

  it('a condition on an earlier field is valid, with equals or with in', () => {
    expect(checkFormSchema(when({ field: 's', equals: 'a' }, select('s')))).toEqual([]);
    expect(checkFormSchema(when({ field: 's', in: ['a', 'b'] }, select('s')))).toEqual([]);
    expect(checkFormSchema(when({ field: 'n', equals: 3 }, { key: 'n', type: 'number', label: 'N' }))).toEqual([]);
    expect(checkFormSchema(when({ field: 'ok', equals: true }, { key: 'ok', type: 'checkbox', label: 'OK' }))).toEqual([]);
  });

  it('naming an unknown field, a later field or itself is an error', () => {
    expect(at(errors(when({ field: 'nope', equals: 'a' })), path(0, '.field'))).toEqual(['names no field of this form']);
    expect(at(errors(form(text('q', { visibleIf: { field: 's', equals: 'a' } }), select('s'))), path(0, '.field'))).toEqual([
      'names a later field (fields[1]); a condition may only name a field above it',
    ]);
    expect(at(errors(when({ field: 'q', equals: 'a' })), path(0, '.field'))).toEqual(['a field cannot depend on itself']);
    expect(at(errors(when({ equals: 'a' })), path(0, '.field'))).toEqual(['is required']);
  });

  it('content and file fields cannot be conditions', () => {
    expect(at(errors(when({ field: 'c', equals: 'a' }, { key: 'c', type: 'content', label: 'C' })), path(1, '.field'))).toEqual([
      'names a content field, which holds no value',
    ]);
    expect(at(errors(when({ field: 'f', equals: 'a' }, { key: 'f', type: 'file', label: 'F' })), path(1, '.field'))).toEqual([
      'names a file field; conditions on files are not supported',
    ]);
  });

  it('exactly one of equals and in', () => {
    expect(at(errors(when({ field: 's', equals: 'a', in: ['b'] }, select('s'))), path(1))).toEqual(['must give either equals or in, not both']);
    expect(at(errors(when({ field: 's' }, select('s'))), path(1))).toEqual(['must give equals or in']);
  });

  it('condition values are non-blank strings, finite numbers or booleans; in holds 1 to 100 of them', () => {
    expect(at(errors(when({ field: 's', equals: null }, select('s'))), path(1, '.equals'))).toEqual(['must be a string, a number or true/false']);
    expect(at(errors(when({ field: 's', equals: '' }, select('s'))), path(1, '.equals'))).toEqual(['must not be blank']);
    expect(at(errors(when({ field: 's', equals: Infinity }, select('s'))), path(1, '.equals'))).toEqual(['must be a finite number']);
    expect(at(errors(when({ field: 's', in: [] }, select('s'))), path(1, '.in'))).toEqual(['must be a non-empty list of values']);
    expect(at(errors(when({ field: 's', in: 'a' }, select('s'))), path(1, '.in'))).toEqual(['must be a non-empty list of values']);
    expect(at(errors(when({ field: 's', in: Array(101).fill('a') }, select('s'))), path(1, '.in'))).toEqual(['must hold at most 100 values']);
    expect(at(errors(when({ field: 's', in: ['a', { x: 1 }] }, select('s'))), path(1, '.in[1]'))).toEqual(['must be a string, a number or true/false']);
  });

  it('a value the source can never hold is a warning (the field would never show)', () => {
    expect(at(warnings(when({ field: 's', equals: 'z' }, select('s'))), path(1, '.equals'))).toEqual(['is not a value s can hold; the field would never show']);
    expect(at(warnings(when({ field: 'ok', equals: 'yes' }, { key: 'ok', type: 'checkbox', label: 'OK' })), path(1, '.equals'))).toHaveLength(1);
    expect(at(warnings(when({ field: 'n', in: [1, '2'] }, { key: 'n', type: 'number', label: 'N' })), path(1, '.in[1]'))).toEqual(['is not a value n can hold']);
    expect(at(warnings(when({ field: 'd', equals: 'tomorrow' }, { key: 'd', type: 'date', label: 'D' })), path(1, '.equals'))).toHaveLength(1);
  });

  it('visibleIf must be an object; unknown properties in it are warnings', () => {
    expect(at(errors(when('s == a', select('s'))), path(1))).toEqual(['must be an object { field, equals } or { field, in }']);
    expect(at(warnings(when({ field: 's', equals: 'a', op: 'eq' }, select('s'))), path(1, '.op'))).toEqual(['unknown property, ignored']);
  });
});

describe('checkFormSchema: never throws, whatever the input', () => {
  it('arbitrary values (property)', () => {
    fc.assert(
      fc.property(fc.anything({ withBigInt: true, withDate: true, withMap: true, withSet: true, withTypedArray: true, withSparseArray: true, withNullPrototype: true }), (input) => {
        const problems = checkFormSchema(input);
        for (const p of problems) expect(['error', 'warning']).toContain(p.level);
      }),
      { numRuns: 2000 },
    );
  });

  it('arbitrary values in every slot of a schema (property)', () => {
    fc.assert(
      fc.property(fc.anything(), fc.anything(), fc.anything(), fc.anything(), (a, b, c, d) => {
        checkFormSchema({ title: a, fields: [{ key: 'k', type: 'select', label: b, options: [c], validation: d, visibleIf: d }, b] });
      }),
      { numRuns: 1000 },
    );
  });

  it('deep nesting is not walked', () => {
    let deep: Json = {};
    for (let i = 0; i < 100_000; i++) deep = { a: deep, b: [deep] };
    expect(() => checkFormSchema(form(text('a', { validation: deep, visibleIf: deep, options: [deep] })))).not.toThrow();
  });

  it('huge inputs are checked in bounded time and the problem list is bounded', () => {
    const start = Date.now();
    const fields = Array.from({ length: 1_000_000 }, () => ({ key: 'X', type: 'nope', label: '', required: 1, options: 2 }));
    const problems = checkFormSchema({ title: 'x'.repeat(10_000_000), fields, ...Object.fromEntries(Array.from({ length: 10_000 }, (_, i) => [`p${i}`, i])) });
    expect(Date.now() - start).toBeLessThan(3_000);
    expect(problems.length).toBeLessThanOrEqual(402);
    expect(problems.filter((p) => p.level === 'error')).toHaveLength(201);
    expect(problems).toContainEqual({ path: '', level: 'error', message: 'more errors than listed here' });
  });

  it('a hostile object (throwing getter, Proxy) answers one error instead of throwing', () => {
    const getter = Object.defineProperty({ fields: [] }, 'title', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(checkFormSchema(getter)).toEqual([{ path: '', level: 'error', message: 'the schema could not be read' }]);
    const proxy = new Proxy({}, { ownKeys: () => { throw new Error('trap'); } });
    expect(hasErrors(checkFormSchema(proxy))).toBe(true);
  });

  it('inherited properties do not count: a field object without a label has none', () => {
    const field = Object.assign(Object.create({ label: 'inherited', type: 'text' }), { key: 'a' });
    expect(at(errors(form(field)), 'fields[0].label')).toEqual(['is required']);
  });
});
