import Ajv2020 from 'ajv/dist/2020';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormField, FormSchema } from '../../../domain/forms/form-schema';
import { JSON_SCHEMA_DIALECT, toJsonSchema } from '../../../domain/forms/json-schema';
import { validateSubmission } from '../../../domain/forms/submission';
import { isCleanJson, junk, submissionFor, validSchema } from './arbitraries';

// A standard validator as another client would use it: strict, Unicode patterns. `format` is an
// annotation in 2020-12 (the `pattern` beside it carries the rule), so formats are not asserted.
const ajv = new Ajv2020({ strict: true, validateFormats: false, allErrors: false });
const compile = (schema: FormSchema) => ajv.compile(toJsonSchema(schema));

/** ajv's uniqueItems keeps seen strings in a plain object, so a repeated "__proto__" goes unnoticed. */
const hitsAjvProtoBug = (data: Record<string, unknown>) =>
  Object.values(data).some((v) => Array.isArray(v) && v.filter((item) => item === '__proto__').length > 1);

const schemaOf = (...fields: FormField[]): FormSchema => ({ title: 'Contact', description: 'Tell us', fields });
const options = (...values: string[]) => values.map((value) => ({ value, label: value.toUpperCase() }));

describe('toJsonSchema: the document', () => {
  const form = schemaOf(
    { key: 'name', type: 'text', label: 'Name', required: true, help: 'Your full name' },
    { key: 'contact', type: 'radio', label: 'Contact', options: options('email', 'phone') },
    { key: 'email', type: 'email', label: 'Email', required: true, visibleIf: { field: 'contact', equals: 'email' } },
    { key: 'intro', type: 'content', label: 'Read me' },
  );
  const json = toJsonSchema(form) as Record<string, unknown>;

  it('is a draft 2020-12 object schema with the title, description and required fields', () => {
    expect(json).toMatchObject({ $schema: JSON_SCHEMA_DIALECT, title: 'Contact', description: 'Tell us', type: 'object', required: ['name'] });
    expect(ajv.validateSchema(json)).toBe(true);
  });

  it('each field is a property titled by its label; content fields are not', () => {
    expect(Object.keys(json.properties as object)).toEqual(['name', 'contact', 'email']);
    expect((json.properties as Record<string, unknown>).name).toEqual({ type: 'string', minLength: 1, maxLength: 1000, title: 'Name', description: 'Your full name' });
  });

  it('a conditional field is constrained in an if/then of its condition', () => {
    expect(json.allOf).toEqual([
      {
        if: { properties: { contact: { const: 'email' } }, required: ['contact'] },
        then: { properties: { email: expect.objectContaining({ type: 'string', format: 'email', maxLength: 254 }) }, required: ['email'] },
      },
    ]);
    const validate = compile(form);
    expect(validate({ name: 'Ada', contact: 'email' })).toBe(false);
    expect(validate({ name: 'Ada', contact: 'phone' })).toBe(true);
    expect(validate({ name: 'Ada', contact: 'email', email: 'ada@example.org' })).toBe(true);
  });

  it('a chain of conditions: the field shows only when every source up the chain shows', () => {
    const chained = schemaOf(
      { key: 'a', type: 'select', label: 'A', options: options('x', 'y') },
      { key: 'b', type: 'multiselect', label: 'B', options: options('x', 'y'), visibleIf: { field: 'a', equals: 'x' } },
      { key: 'c', type: 'text', label: 'C', required: true, visibleIf: { field: 'b', in: ['x'] } },
    );
    const validate = compile(chained);
    expect(validate({ a: 'x', b: ['x'] })).toBe(false);
    expect(validate({ a: 'y', b: ['x'] })).toBe(true);
    expect(validateSubmission(chained, { a: 'y', b: ['x'] }).ok).toBe(true);
    expect((toJsonSchema(chained) as { allOf: unknown[] }).allOf[1]).toEqual({
      if: {
        allOf: [
          { properties: { b: { type: 'array', contains: { enum: ['x'] } } }, required: ['b'] },
          { properties: { a: { const: 'x' } }, required: ['a'] },
        ],
      },
      then: { properties: { c: expect.objectContaining({ type: 'string' }) }, required: ['c'] },
    });
  });

  it('an optional field accepts the absent forms null, "" and []', () => {
    const validate = compile(schemaOf({ key: 'n', type: 'number', label: 'N' }));
    for (const absent of [null, '', []]) expect(validate({ n: absent })).toBe(true);
    expect(validate({ n: 'x' })).toBe(false);
  });

  it('lengths count code points, as on the server', () => {
    const form1 = schemaOf({ key: 't', type: 'text', label: 'T', validation: { maxLength: 2 } });
    expect(compile(form1)({ t: '😀😀' })).toBe(true);
    expect(validateSubmission(form1, { t: '😀😀' }).ok).toBe(true);
  });

  it('compiles in strict mode for every field type and rule', () => {
    fc.assert(
      fc.property(validSchema, (schema) => {
        expect(() => compile(schema)).not.toThrow();
      }),
      { numRuns: 200 },
    );
  }, 30_000);
});

describe('toJsonSchema agrees with validateSubmission', () => {
  // Compiling is the slow part: each schema is compiled once and tried with several submissions.
  it('on acceptance of any clean submission, and accepts what the server keeps (property)', () => {
    let accepted = 0;
    let refused = 0;
    fc.assert(
      fc.property(
        validSchema.chain((s) => fc.tuple(fc.constant(s), fc.array(submissionFor(s), { minLength: 6, maxLength: 6 }))),
        ([schema, submissions]) => {
          const validate = compile(schema);
          for (const data of submissions) {
            expect(isCleanJson(data)).toBe(true);
            const result = validateSubmission(schema, data);
            if (hitsAjvProtoBug(data)) continue;
            expect(validate(data), JSON.stringify({ data, result })).toBe(result.ok);
            if (result.ok) expect(validate(result.data)).toBe(true);
            if (result.ok) accepted++;
            else refused++;
          }
        },
      ),
      { numRuns: 150 },
    );
    // Both answers are common, so agreement is not vacuous.
    expect(Math.min(accepted, refused)).toBeGreaterThan(100);
  }, 30_000);

  it('on data that is not an object', () => {
    fc.assert(
      fc.property(validSchema, fc.oneof(junk.filter((j) => typeof j !== 'object' || Array.isArray(j)), fc.constant(null)), (schema, data) => {
        expect(compile(schema)(data)).toBe(false);
        expect(validateSubmission(schema, data).ok).toBe(false);
      }),
      { numRuns: 100 },
    );
  });

  describe('where they cannot agree (documented in docs/forms.md)', () => {
    it('ajv misses a repeated "__proto__" in uniqueItems; the schema says unique and the server refuses it', () => {
      const form = schemaOf({ key: 'm', type: 'multiselect', label: 'M', options: options('__proto__', 'a') });
      expect(toJsonSchema(form)).toMatchObject({ properties: { m: { anyOf: expect.arrayContaining([expect.objectContaining({ uniqueItems: true })]) } } });
      expect(compile(form)({ m: ['a', 'a'] })).toBe(false);
      expect(compile(form)({ m: ['__proto__', '__proto__'] })).toBe(true);
      expect(validateSubmission(form, { m: ['__proto__', '__proto__'] }).ok).toBe(false);
    });

    const short = schemaOf({ key: 't', type: 'text', label: 'T', required: true, validation: { maxLength: 2 } });

    it('the server removes control characters before it checks lengths', () => {
      expect(validateSubmission(short, { t: 'a\u0000b' })).toEqual({ ok: true, data: { t: 'ab' } });
      expect(compile(short)({ t: 'a\u0000b' })).toBe(false);
    });

    it('a value of control characters only is no answer to the server', () => {
      expect(validateSubmission(short, { t: '\u0000' }).ok).toBe(false);
      expect(compile(short)({ t: '\u0000' })).toBe(true);
    });
  });
});
