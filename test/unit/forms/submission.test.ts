import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { FormField, FormSchema } from '../../../domain/forms/form-schema';
import { MAX_SUBMISSION_ERRORS, submissionByteBound, validateSubmission } from '../../../domain/forms/submission';
import { cleanText } from '../../../domain/forms/text-cleaning';
import { entrySchema } from '../../../domain/forms/value-schemas';
import { visibleFields } from '../../../domain/forms/visibility';
import { submissionFor, validSchema } from './arbitraries';

const schemaOf = (...fields: FormField[]): FormSchema => ({ title: 'T', fields });
const field = (type: FormField['type'], extra: Partial<FormField> = {}): FormField => ({ key: 'f', type, label: 'F', ...extra });
const options = (...values: string[]) => values.map((value) => ({ value, label: value.toUpperCase() }));

/** The answer for `{ f: value }` against a one-field form. */
const check = (f: FormField, value: unknown) => validateSubmission(schemaOf(f), { [f.key]: value });
const accepts = (f: FormField, value: unknown, kept: unknown = value) => expect(check(f, value)).toEqual({ ok: true, data: { [f.key]: kept } });
const refuses = (f: FormField, value: unknown, message: string | RegExp) => {
  const result = check(f, value);
  expect(result.ok).toBe(false);
  if (!result.ok) expect(result.errors[0]?.message).toMatch(message);
};
const UUID = '3f1c2a9e-8b7d-4c6e-9a5f-1d2e3f4a5b6c';
const UUID2 = '0b8f0a34-6f1e-4d57-8a0c-2a7d6e9b1c3f';

describe('validateSubmission: value shapes', () => {
  it('text, hidden: a string, at most 1,000 characters counted as code points', () => {
    accepts(field('text'), 'hello');
    accepts(field('hidden'), 'campaign-7');
    refuses(field('text'), 5, 'must be text');
    refuses(field('text'), 'x'.repeat(1001), 'must be at most 1000 characters');
    accepts(field('text'), '😀'.repeat(1000));
    refuses(field('text', { validation: { maxLength: 3 } }), '😀😀😀😀', 'must be at most 3 characters');
    refuses(field('text', { validation: { minLength: 3 } }), 'ab', 'must be at least 3 characters');
  });

  it('textarea: up to 10,000 characters, keeping tab and line breaks', () => {
    accepts(field('textarea'), 'a\tb\r\nc');
    accepts(field('textarea'), 'x'.repeat(10_000));
    refuses(field('textarea'), 'x'.repeat(10_001), 'must be at most 10000 characters');
  });

  it('a pattern must match the whole value, and only sees values within the length bound', () => {
    const coded = field('text', { validation: { pattern: '[A-Z]{2}\\d{3}' } });
    accepts(coded, 'AB123');
    refuses(coded, 'xAB123', 'does not have the expected format');
    refuses(coded, 'AB1234', 'does not have the expected format');
    refuses(field('textarea', { validation: { pattern: '[a-z]*' } }), 'a'.repeat(1001), 'must be at most 1000 characters');
  });

  it('email: an address of at most 254 characters', () => {
    accepts(field('email'), 'ada@example.org');
    refuses(field('email'), 'ada@', 'must be an email address');
    refuses(field('email'), `${'a'.repeat(250)}@x.io`, 'must be at most 254 characters');
  });

  it('tel: digits with spaces and + ( ) - . /, at least one digit, at most 40 characters', () => {
    accepts(field('tel'), '+49 (30) 123-45.6/7');
    refuses(field('tel'), 'call me', /must be a telephone number/);
    refuses(field('tel'), '+', /must be a telephone number/);
    refuses(field('tel'), '1'.repeat(41), 'must be at most 40 characters');
  });

  it('number: a finite JSON number (no strings), whole when integer, within min and max', () => {
    accepts(field('number'), 2.5);
    accepts(field('number'), 0);
    refuses(field('number'), '5', 'must be a number');
    refuses(field('number'), Infinity, /number/);
    refuses(field('number', { validation: { integer: true } }), 2.5, 'must be a whole number');
    refuses(field('number', { validation: { integer: true } }), 2 ** 60, /./);
    refuses(field('number', { validation: { min: 1 } }), 0, 'must be at least 1');
    refuses(field('number', { validation: { max: 1 } }), 2, 'must be at most 1');
  });

  it('date: YYYY-MM-DD, a real calendar date', () => {
    accepts(field('date'), '2024-02-29');
    accepts(field('date'), '2000-02-29');
    refuses(field('date'), '2023-02-29', 'must be a date as YYYY-MM-DD');
    refuses(field('date'), '1900-02-29', 'must be a date as YYYY-MM-DD');
    refuses(field('date'), '2024-04-31', 'must be a date as YYYY-MM-DD');
    refuses(field('date'), '2024-2-1', 'must be a date as YYYY-MM-DD');
    refuses(field('date'), '2024-02-01T00:00:00Z', 'must be a date as YYYY-MM-DD');
  });

  it('select and radio: one of the option values, whatever they are called', () => {
    const s = field('select', { options: options('a', 'constructor', '__proto__') });
    accepts(s, 'a');
    accepts(s, '__proto__');
    accepts(field('radio', { options: options('yes', 'no') }), 'no');
    refuses(s, 'toString', 'must be one of the options');
    refuses(s, ['a'], 'must be one of the options');
  });

  it('multiselect: a list of distinct option values within minItems and maxItems', () => {
    const m = field('multiselect', { options: options('a', 'b', 'c'), validation: { minItems: 2, maxItems: 2 } });
    accepts(m, ['a', 'c']);
    refuses(m, ['a'], 'must hold at least 2');
    refuses(m, ['a', 'b', 'c'], 'must hold at most 2');
    refuses(m, ['a', 'a'], 'must not repeat a value');
    refuses(m, 'a', 'must be a list of options');
    expect(check(m, ['a', 'x'])).toEqual({ ok: false, errors: [{ path: 'f.1', message: 'must be one of the options' }] });
  });

  it('checkbox: true or false; required means it must be checked', () => {
    accepts(field('checkbox'), false);
    accepts(field('checkbox'), true);
    refuses(field('checkbox'), 'true', 'must be true or false');
    accepts(field('checkbox', { required: true }), true);
    refuses(field('checkbox', { required: true }), false, 'must be checked');
  });

  it('file: a list of distinct document ids (UUIDs), at most 20; a single id is not a list', () => {
    accepts(field('file'), [UUID, UUID2]);
    refuses(field('file'), UUID, 'must be a list of document ids');
    refuses(field('file'), ['doc-1'], 'must be a document id');
    refuses(field('file'), [UUID, UUID], 'must not repeat a value');
    refuses(field('file', { validation: { maxItems: 1 } }), [UUID, UUID2], 'must hold at most 1');
    const many = Array.from({ length: 21 }, (_, i) => `3f1c2a9e-8b7d-4c6e-9a5f-${String(i).padStart(12, '0')}`);
    refuses(field('file'), many, 'must hold at most 20');
  });

  it('content: holds nothing; a value sent for it is stripped', () => {
    expect(check(field('content'), 'x')).toEqual({ ok: true, data: {} });
  });
});

describe('validateSubmission: required and absent answers', () => {
  const types: [FormField['type'], Partial<FormField>][] = [
    ['text', {}],
    ['textarea', {}],
    ['email', {}],
    ['tel', {}],
    ['hidden', {}],
    ['number', {}],
    ['date', {}],
    ['select', { options: options('a') }],
    ['radio', { options: options('a') }],
    ['multiselect', { options: options('a') }],
    ['checkbox', {}],
    ['file', {}],
  ];

  it.each(types)('a required %s refuses a missing key, null, "" and [] with "is required"', (type, extra) => {
    const f = field(type, { ...extra, required: true });
    expect(validateSubmission(schemaOf(f), {})).toEqual({ ok: false, errors: [{ path: 'f', message: 'is required' }] });
    for (const absent of [null, '', []]) expect(check(f, absent)).toEqual({ ok: false, errors: [{ path: 'f', message: 'is required' }] });
  });

  it.each(types)('an optional %s accepts null, "" and [] as no answer, and does not keep them', (type, extra) => {
    for (const absent of [null, '', []]) expect(check(field(type, extra), absent)).toEqual({ ok: true, data: {} });
  });

  it('a value of control characters only is no answer; whitespace is an answer', () => {
    refuses(field('text', { required: true }), '\u0000\u0001', 'is required');
    accepts(field('text', { required: true }), '  ');
  });

  it('reads own keys only, even for a field keyed "constructor" (a key valid schemas reserve)', () => {
    expect(validateSubmission(schemaOf(field('text', { key: 'constructor', required: true })), {})).toEqual({
      ok: false,
      errors: [{ path: 'constructor', message: 'is required' }],
    });
    expect(validateSubmission(schemaOf(field('text', { key: 'constructor' })), { constructor: 'x' })).toEqual({ ok: true, data: { constructor: 'x' } });
  });
});

describe('validateSubmission: cleaning', () => {
  it('fields unknown to the schema are stripped', () => {
    expect(validateSubmission(schemaOf(field('text')), { f: 'a', g: 'b', __proto__x: 1 })).toEqual({ ok: true, data: { f: 'a' } });
  });

  it('C0 and C1 control characters, DEL and lone surrogates are removed from single-line text', () => {
    accepts(field('text'), 'a\u0000b\tc\nd\re\u001ff\u007fg\u0085h\u009fi\ud800j\udfffk😀', 'abcdefghijk😀');
  });

  it('a textarea keeps tab, LF and CR but loses the other control characters', () => {
    accepts(field('textarea'), 'a\tb\nc\rd\u0000e\u000bf\u000cg\u0085', 'a\tb\nc\rdefg');
  });

  it('strings inside lists are cleaned too', () => {
    accepts(field('multiselect', { options: options('a', 'b') }), ['a\u0000', 'b'], ['a', 'b']);
  });

  it('length bounds apply to the cleaned text', () => {
    accepts(field('text', { validation: { maxLength: 2 } }), 'a\u0000\u0000b', 'ab');
  });

  it('a submission that is not an object is refused at the root', () => {
    for (const data of [null, [], 'x', 5]) {
      expect(validateSubmission(schemaOf(field('text')), data)).toEqual({ ok: false, errors: [{ path: '', message: 'must be an object of field values' }] });
    }
  });
});

describe('validateSubmission: visibleIf', () => {
  const contact = field('select', { key: 'contact', options: options('email', 'phone', 'none') });
  const email = field('email', { key: 'email', required: true, visibleIf: { field: 'contact', equals: 'email' } });
  const form = schemaOf(contact, email);

  it('a shown field is validated and required', () => {
    expect(validateSubmission(form, { contact: 'email' })).toEqual({ ok: false, errors: [{ path: 'email', message: 'is required' }] });
    expect(validateSubmission(form, { contact: 'email', email: 'a@b.co' })).toEqual({ ok: true, data: { contact: 'email', email: 'a@b.co' } });
  });

  it('a hidden field is neither required nor kept, whatever its value', () => {
    expect(validateSubmission(form, { contact: 'phone' })).toEqual({ ok: true, data: { contact: 'phone' } });
    expect(validateSubmission(form, { contact: 'phone', email: 'not an address' })).toEqual({ ok: true, data: { contact: 'phone' } });
    expect(validateSubmission(form, { email: 'a@b.co' })).toEqual({ ok: true, data: {} });
  });

  it('in: shown when the source holds any of the values', () => {
    const f = schemaOf(contact, { ...email, visibleIf: { field: 'contact', in: ['email', 'phone'] } });
    expect(validateSubmission(f, { contact: 'phone' }).ok).toBe(false);
    expect(validateSubmission(f, { contact: 'none' }).ok).toBe(true);
  });

  it('a multiselect source: shown when the selection includes the value', () => {
    const topics = field('multiselect', { key: 'topics', options: options('billing', 'other') });
    const other = field('text', { key: 'other', required: true, visibleIf: { field: 'topics', equals: 'other' } });
    expect(validateSubmission(schemaOf(topics, other), { topics: ['billing', 'other'] }).ok).toBe(false);
    expect(validateSubmission(schemaOf(topics, other), { topics: ['billing'] })).toEqual({ ok: true, data: { topics: ['billing'] } });
  });

  it('a checkbox or number source compares by JSON equality', () => {
    const agree = field('checkbox', { key: 'agree' });
    const n = field('number', { key: 'n' });
    const why = (source: string, equals: unknown) => field('text', { key: 'why', required: true, visibleIf: { field: source, equals } });
    expect(validateSubmission(schemaOf(agree, why('agree', true)), { agree: true }).ok).toBe(false);
    expect(validateSubmission(schemaOf(agree, why('agree', true)), { agree: 'true' }).ok).toBe(false); // refused as a checkbox value
    expect(validateSubmission(schemaOf(agree, why('agree', false)), {}).ok).toBe(true); // absent is not false
    expect(validateSubmission(schemaOf(n, why('n', 1)), { n: 1 }).ok).toBe(false);
    expect(validateSubmission(schemaOf(n, why('n', 1)), { n: 2 }).ok).toBe(true);
  });

  it('a field whose source is hidden is hidden too, even if the source value matches', () => {
    const a = field('select', { key: 'a', options: options('x', 'y') });
    const b = field('select', { key: 'b', options: options('x', 'y'), visibleIf: { field: 'a', equals: 'x' } });
    const c = field('text', { key: 'c', required: true, visibleIf: { field: 'b', equals: 'x' } });
    const chained = schemaOf(a, b, c);
    expect(validateSubmission(chained, { a: 'x', b: 'x' }).ok).toBe(false);
    expect(validateSubmission(chained, { a: 'y', b: 'x' })).toEqual({ ok: true, data: { a: 'y' } });
    expect(visibleFields(chained, { a: 'y', b: 'x' }).map((f) => f.key)).toEqual(['a']);
  });

  it('a condition is evaluated on the cleaned value', () => {
    expect(validateSubmission(form, { contact: 'em\u0000ail' })).toEqual({ ok: false, errors: [{ path: 'email', message: 'is required' }] });
  });
});

describe('validateSubmission: errors', () => {
  it('lists every field error in field order with dotted paths', () => {
    const form = schemaOf(field('text', { key: 'a', required: true }), field('multiselect', { key: 'b', options: options('x') }), field('number', { key: 'c' }));
    expect(validateSubmission(form, { b: ['x', 'y'], c: 'no' })).toEqual({
      ok: false,
      errors: [
        { path: 'a', message: 'is required' },
        { path: 'b.1', message: 'must be one of the options' },
        { path: 'c', message: 'must be a number' },
      ],
    });
  });

  it('one error per path: a value of the wrong type is not also reported as too long', () => {
    expect(check(field('multiselect', { options: options('a'), validation: { maxItems: 1 } }), 'abc')).toEqual({
      ok: false,
      errors: [{ path: 'f', message: 'must be a list of options' }],
    });
  });

  it(`reports at most ${MAX_SUBMISSION_ERRORS} errors`, () => {
    const result = check(field('multiselect', { options: options('x') }), Array.from({ length: 5000 }, (_, i) => `v${i}`));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors).toHaveLength(MAX_SUBMISSION_ERRORS);
  });
});

describe('validateSubmission: derived from zod', () => {
  it('every value field maps to a zod type; content to none', () => {
    expect(entrySchema(field('text'))).toBeInstanceOf(z.ZodType);
    expect(entrySchema(field('select', { options: options('a') }))).toBeInstanceOf(z.ZodType);
    expect(entrySchema(field('content'))).toBeUndefined();
  });

  it('for shown fields the answer is exactly the zod object of their entry schemas (property)', () => {
    fc.assert(
      fc.property(validSchema.chain((s) => fc.tuple(fc.constant(s), submissionFor(s))), ([schema, data]) => {
        const shown = visibleFields(schema, data);
        const shape = Object.fromEntries(shown.flatMap((f) => (entrySchema(f) ? [[f.key, entrySchema(f) as z.ZodType]] : [])));
        const ownKeysOnly = Object.assign(Object.create(null), data);
        expect(validateSubmission(schema, data).ok).toBe(z.object(shape).safeParse(ownKeysOnly).success);
      }),
      { numRuns: 300 },
    );
  });
});

describe('validateSubmission: properties', () => {
  it('never throws, whatever the data', () => {
    fc.assert(
      fc.property(validSchema, fc.anything({ withNullPrototype: true, withSparseArray: true, withBigInt: true }), (schema, data) => {
        validateSubmission(schema, data);
      }),
      { numRuns: 500 },
    );
  });

  it('what it keeps is clean, shown, present, and accepted again unchanged', () => {
    const strings = (v: unknown): string[] => (typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(strings) : []);
    fc.assert(
      fc.property(
        validSchema.chain((s) => fc.tuple(fc.constant(s), submissionFor(s).map((d) => ({ ...d, noise: 'x\u0000' })))),
        ([schema, data]) => {
          const result = validateSubmission(schema, data);
          if (!result.ok) return;
          const shown = new Set(visibleFields(schema, result.data).map((f) => f.key));
          for (const [key, value] of Object.entries(result.data)) {
            expect(shown.has(key)).toBe(true);
            expect(value === null || value === '' || (Array.isArray(value) && value.length === 0)).toBe(false);
            const multiline = schema.fields.find((f) => f.key === key)?.type === 'textarea';
            for (const s of strings(value)) expect(cleanText(s, multiline)).toBe(s);
          }
          expect(validateSubmission(schema, result.data)).toEqual(result);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('submissionByteBound covers any valid submission, even with every character escaped', () => {
    const escapeAll = (data: unknown) => JSON.stringify(data, null, 1).replace(/[^\x20-\x7e\n]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    fc.assert(
      fc.property(validSchema.chain((s) => fc.tuple(fc.constant(s), submissionFor(s))), ([schema, data]) => {
        const result = validateSubmission(schema, data);
        if (result.ok) expect(Buffer.byteLength(escapeAll(result.data))).toBeLessThanOrEqual(submissionByteBound(schema));
      }),
      { numRuns: 300 },
    );
  });
});
