import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormField } from '../../../domain/forms/form-schema';
import { checkFormSchema, hasErrors } from '../../../domain/forms/schema-check';
import { repairFormSchema } from '../../../domain/forms/schema-repair';
import { messyDraft, validSchema } from './arbitraries';

const EMPTY = { title: 'Untitled form', fields: [] };
const fieldsOf = (...fields: unknown[]) => repairFormSchema({ title: 'T', fields }).fields;
const only = (field: unknown): FormField => fieldsOf(field)[0] as FormField;

describe('repairFormSchema: the form', () => {
  it.each([null, undefined, 5, 'form', [], [{ title: 'x' }], true])('%j becomes an empty untitled form', (raw) => {
    expect(repairFormSchema(raw)).toEqual(EMPTY);
  });

  it('a missing, blank or non-string title becomes "Untitled form"; a long one is cut; control characters go', () => {
    expect(repairFormSchema({ fields: [] }).title).toBe('Untitled form');
    expect(repairFormSchema({ title: ' \n ', fields: [] }).title).toBe('Untitled form');
    expect(repairFormSchema({ title: 42, fields: [] }).title).toBe('Untitled form');
    expect(repairFormSchema({ title: 'x'.repeat(300), fields: [] }).title).toHaveLength(200);
    expect(repairFormSchema({ title: 'Con\u0000tact\nus', fields: [] }).title).toBe('Contactus');
    expect(repairFormSchema({ title: '😀'.repeat(300), fields: [] }).title).toBe('😀'.repeat(200));
  });

  it('a description keeps its line breaks; a non-string or blank one is dropped', () => {
    expect(repairFormSchema({ title: 't', description: 'a\nb\u0007', fields: [] }).description).toBe('a\nb');
    expect(repairFormSchema({ title: 't', description: 5, fields: [] })).not.toHaveProperty('description');
    expect(repairFormSchema({ title: 't', description: '', fields: [] })).not.toHaveProperty('description');
  });

  it('fields that are not a list become []; entries that are not objects are dropped', () => {
    expect(repairFormSchema({ title: 't', fields: { a: 1 } }).fields).toEqual([]);
    expect(fieldsOf('a', null, 3, { key: 'a', type: 'text', label: 'A' })).toEqual([{ key: 'a', type: 'text', label: 'A' }]);
  });

  it('keeps at most 200 fields', () => {
    const fields = Array.from({ length: 300 }, (_, i) => ({ key: `f${i}`, type: 'text', label: 'F' }));
    expect(repairFormSchema({ title: 't', fields }).fields).toHaveLength(200);
  });

  it('unknown properties are dropped', () => {
    expect(repairFormSchema({ title: 't', version: 3, fields: [{ key: 'a', type: 'text', label: 'A', colour: 'red' }] })).toEqual({
      title: 't',
      fields: [{ key: 'a', type: 'text', label: 'A' }],
    });
  });
});

describe('repairFormSchema: keys and labels', () => {
  it.each([
    ['First Name', 'first_name'],
    ['1st choice', 'f_1st_choice'],
    ['Über uns', 'uber_uns'],
    ['__x__', 'x'],
    ['A-B', 'a_b'],
    [42, 'f_42'],
    ['a'.repeat(80), 'a'.repeat(64)],
  ])('the invalid key %j is slugified to %s', (key, slug) => {
    expect(only({ key, type: 'text', label: 'L' }).key).toBe(slug);
  });

  it('the reserved key "constructor" gets a suffix', () => {
    expect(only({ key: 'constructor', type: 'text', label: 'L' }).key).toBe('constructor_2');
  });

  it('a valid key is kept as it is', () => {
    expect(only({ key: 'a__b', type: 'text', label: 'L' }).key).toBe('a__b');
  });

  it('without a usable key the label gives one, else the position', () => {
    expect(only({ type: 'text', label: 'Your e-mail' }).key).toBe('your_e_mail');
    expect(fieldsOf({ key: 'a', type: 'text', label: 'A' }, { key: '!!!', type: 'text' }).map((f) => f.key)).toEqual(['a', 'field_2']);
  });

  it('duplicate keys get a suffix, staying within 64 characters', () => {
    const long = 'k'.repeat(64);
    expect(
      fieldsOf(
        { key: 'a', type: 'text', label: 'A' },
        { key: 'a', type: 'text', label: 'A' },
        { key: 'A', type: 'text', label: 'A' },
        { key: long, type: 'text', label: 'L' },
        { key: long, type: 'text', label: 'L' },
      ).map((f) => f.key),
    ).toEqual(['a', 'a_2', 'a_3', long, `${'k'.repeat(62)}_2`]);
  });

  it('a missing label comes from the stored key, or reads the key', () => {
    expect(only({ key: 'First Name', type: 'text' }).label).toBe('First Name');
    expect(only({ key: 'first_name', type: 'text' }).label).toBe('First name');
    expect(only({ key: 'x', type: 'text', label: ' ' }).label).toBe('X');
  });
});

describe('repairFormSchema: types and options', () => {
  it('a type is matched ignoring case and spaces; an unknown one becomes text, keeping the question', () => {
    expect(only({ key: 'a', type: ' EMAIL ', label: 'A' }).type).toBe('email');
    expect(only({ key: 'a', type: 'signature', label: 'A' }).type).toBe('text');
    expect(only({ key: 'a', label: 'A' }).type).toBe('text');
  });

  it('options become { value, label }: bare strings and numbers are both, duplicates and blanks are dropped', () => {
    expect(only({ key: 's', type: 'select', label: 'S', options: ['a', 1, { value: 'a', label: 'again' }, { value: ' ' }, { value: 'b' }, { label: 'no value' }, null] }).options).toEqual([
      { value: 'a', label: 'a' },
      { value: '1', label: '1' },
      { value: 'b', label: 'b' },
    ]);
  });

  it('a choice with no usable option becomes text', () => {
    expect(only({ key: 's', type: 'radio', label: 'S', options: [] })).toEqual({ key: 's', type: 'text', label: 'S' });
    expect(only({ key: 's', type: 'multiselect', label: 'S' })).toEqual({ key: 's', type: 'text', label: 'S' });
  });

  it('options, placeholders and required are dropped where they mean nothing', () => {
    expect(only({ key: 'a', type: 'text', label: 'A', options: ['x'] })).toEqual({ key: 'a', type: 'text', label: 'A' });
    expect(only({ key: 'a', type: 'checkbox', label: 'A', placeholder: 'p' })).toEqual({ key: 'a', type: 'checkbox', label: 'A' });
    expect(only({ key: 'a', type: 'content', label: 'A', required: true })).toEqual({ key: 'a', type: 'content', label: 'A' });
    expect(only({ key: 'a', type: 'text', label: 'A', required: 'yes' })).toEqual({ key: 'a', type: 'text', label: 'A' });
  });
});

describe('repairFormSchema: validation', () => {
  const validation = (type: string, v: unknown, extra: object = {}) => only({ key: 'f', type, label: 'F', validation: v, ...extra }).validation;

  it('keeps the rules of the type with valid values, drops the rest', () => {
    expect(validation('number', { min: 1, max: 5, integer: true, pattern: 'x', minLength: 2 })).toEqual({ min: 1, max: 5, integer: true });
    expect(validation('number', { min: '1', max: Infinity })).toBeUndefined();
    expect(validation('date', { min: 1 })).toBeUndefined();
    expect(validation('text', 'strict')).toBeUndefined();
  });

  it('an unsafe or broken pattern is dropped', () => {
    expect(validation('text', { pattern: '(a+)+', maxLength: 5 })).toEqual({ maxLength: 5 });
    expect(validation('text', { pattern: '(' })).toBeUndefined();
    expect(validation('text', { pattern: '[a-z]+' })).toEqual({ pattern: '[a-z]+' });
  });

  it('upper bounds are clamped to the caps; a lower bound contradicting one is dropped', () => {
    expect(validation('text', { maxLength: 5000 })).toEqual({ maxLength: 1000 });
    expect(validation('textarea', { maxLength: 5000, pattern: '[a-z]*' })).toEqual({ maxLength: 1000, pattern: '[a-z]*' });
    expect(validation('text', { minLength: 9, maxLength: 3 })).toEqual({ maxLength: 3 });
    expect(validation('tel', { minLength: 50 })).toBeUndefined();
    expect(validation('number', { min: 9, max: 3 })).toEqual({ max: 3 });
    expect(validation('number', { min: 0.2, max: 0.8, integer: true })).toEqual({ max: 0.8, integer: true });
    expect(validation('file', { minItems: 30, maxItems: 50 })).toEqual({ maxItems: 20 });
    expect(validation('multiselect', { minItems: 3, maxItems: 9 }, { options: ['a', 'b'] })).toEqual({ maxItems: 9 });
  });
});

describe('repairFormSchema: visibleIf', () => {
  const s = { key: 's', type: 'select', label: 'S', options: ['a', 'b'] };
  const conditionOf = (...fields: object[]) => (fieldsOf(...fields).at(-1) as FormField).visibleIf;

  it('a valid condition is kept', () => {
    expect(conditionOf(s, { key: 'q', type: 'text', label: 'Q', visibleIf: { field: 's', equals: 'a' } })).toEqual({ field: 's', equals: 'a' });
  });

  it('a condition naming a slugified key follows it', () => {
    expect(conditionOf({ ...s, key: 'Your Choice' }, { key: 'q', type: 'text', label: 'Q', visibleIf: { field: 'Your Choice', in: ['a'] } })).toEqual({
      field: 'your_choice',
      in: ['a'],
    });
  });

  it('a condition naming an unknown, later, content or file field, or itself, is dropped', () => {
    const q = (field: string) => ({ key: 'q', type: 'text', label: 'Q', visibleIf: { field, equals: 'a' } });
    expect(conditionOf(s, q('nope'))).toBeUndefined();
    expect(conditionOf(s, q('q'))).toBeUndefined();
    expect(fieldsOf(q('s'), s)[0]?.visibleIf).toBeUndefined();
    expect(conditionOf({ key: 'c', type: 'content', label: 'C' }, q('c'))).toBeUndefined();
    expect(conditionOf({ key: 'f', type: 'file', label: 'F' }, q('f'))).toBeUndefined();
  });

  it('values are cleaned and filtered; equals wins over in; nothing usable drops the condition', () => {
    const q = (visibleIf: object) => ({ key: 'q', type: 'text', label: 'Q', visibleIf: { field: 's', ...visibleIf } });
    expect(conditionOf(s, q({ in: ['a', null, '', { x: 1 }, 'b\u0000'] }))).toEqual({ field: 's', in: ['a', 'b'] });
    expect(conditionOf(s, q({ equals: 'a', in: ['b'] }))).toEqual({ field: 's', equals: 'a' });
    expect(conditionOf(s, q({ equals: null, in: ['b'] }))).toEqual({ field: 's', in: ['b'] });
    expect(conditionOf(s, q({ equals: null }))).toBeUndefined();
    expect(conditionOf(s, q({ in: Array(150).fill('a') }))?.in).toHaveLength(100);
  });
});

describe('repairFormSchema: properties', () => {
  const noErrors = (raw: unknown) => {
    const repaired = repairFormSchema(raw);
    expect(checkFormSchema(repaired).filter((p) => p.level === 'error')).toEqual([]);
    return repaired;
  };

  it('the repair of any value passes the check without errors', () => {
    fc.assert(fc.property(fc.anything({ withNullPrototype: true, withSparseArray: true }), (raw) => void noErrors(raw)), { numRuns: 1000 });
  });

  it('the repair of a messy stored draft passes the check without errors, and repairing again changes nothing', () => {
    fc.assert(
      fc.property(messyDraft, (raw) => {
        const repaired = noErrors(raw);
        expect(repairFormSchema(repaired)).toEqual(repaired);
      }),
      { numRuns: 1500 },
    );
  });

  it('a valid schema comes back unchanged', () => {
    fc.assert(
      fc.property(validSchema, (schema) => {
        expect(repairFormSchema(schema)).toEqual(schema);
      }),
      { numRuns: 500 },
    );
  });

  it('never throws: hostile objects, deep nesting and huge lists', () => {
    const getter = Object.defineProperty({}, 'title', {
      enumerable: true,
      get() {
        throw new Error('boom');
      },
    });
    expect(repairFormSchema(getter)).toEqual(EMPTY);
    let deep: object = {};
    for (let i = 0; i < 100_000; i++) deep = { fields: [deep], visibleIf: deep };
    expect(hasErrors(checkFormSchema(repairFormSchema(deep)))).toBe(false);
    const start = Date.now();
    const huge = repairFormSchema({ title: 't', fields: Array.from({ length: 1_000_000 }, () => 'junk') });
    expect(huge.fields).toEqual([]);
    expect(Date.now() - start).toBeLessThan(2_000);
  });
});
