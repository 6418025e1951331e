import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hasErrors } from '../../../domain/definitions/schema-rules';
import { signatureDefinitionRules, variablesJsonSchema } from '../../../domain/signatures/definition-rules';
import { checkRepairedSchema, checkSigningSchema } from '../../../domain/signatures/schema-check';
import { repairSigningSchema } from '../../../domain/signatures/schema-repair';
import { emptySigningSchema, FIELD_TYPES, ROUTINGS, SIGNER_COLOR, VERIFY_METHODS } from '../../../domain/signatures/signing-schema';
import { draftWithDocument } from '../../../domain/signatures/source-document';
import { validSigningSchema } from '../../support/signatures';

const errorsOf = (raw: unknown) => checkSigningSchema(raw).filter((p) => p.level === 'error');

describe('signing schema: check', () => {
  it('a complete schema has no problems', () => {
    expect(checkSigningSchema(validSigningSchema())).toEqual([]);
  });

  it('the empty schema has errors: no name, no source PDF, no signer', () => {
    expect(errorsOf(emptySigningSchema()).map((p) => p.path)).toEqual(['document.name', 'document.key', 'signers']);
  });

  it('a field whose page is out of range is an error naming the page count (geometry rule 3)', () => {
    const s = validSigningSchema(2);
    s.fields[0]!.page = 3;
    expect(errorsOf(s)).toEqual([{ path: 'fields.0.page', level: 'error', message: 'page 3 is out of range: the document has 2 pages' }]);
    s.fields[0]!.page = 0;
    expect(errorsOf(s).map((p) => p.path)).toEqual(['fields.0.page']);
  });

  it('geometry outside the page bounds, zero sizes and fractional pages are errors', () => {
    const s = validSigningSchema();
    Object.assign(s.fields[1]!, { x: -1, w: 0, page: 1.5 });
    Object.assign(s.fields[2]!, { y: 14_390, h: 20 });
    expect(errorsOf(s).map((p) => p.path)).toEqual(['fields.1.page', 'fields.1.x', 'fields.1.w', 'fields.2']);
  });

  it('a signer without a SIGNATURE field is an error; SMS_OTP and IDV are warnings', () => {
    const s = validSigningSchema();
    s.fields = s.fields.filter((f) => f.id !== 'f3');
    (s.signers[0] as { verify?: string }).verify = 'SMS_OTP';
    const problems = checkSigningSchema(s);
    expect(problems).toContainEqual({ path: 'signers.1', level: 'error', message: 'signer "manager" has no SIGNATURE field' });
    expect(problems).toContainEqual(expect.objectContaining({ path: 'signers.0.verify', level: 'warning' }));
  });

  it('variable keys must be identifiers', () => {
    const s = validSigningSchema();
    s.variables.push({ key: '9lives', label: 'Nine', required: false });
    expect(errorsOf(s).map((p) => p.path)).toEqual(['variables.1.key']);
  });

  it('a source PDF key without a page count is an error', () => {
    const s = validSigningSchema();
    delete (s.document as { pageCount?: number }).pageCount;
    expect(errorsOf(s).map((p) => p.path)).toEqual(['document.pageCount']);
  });
});

describe('signing schema: repair on read (geometry rule 4)', () => {
  it('fields of missing signers are dropped, with a warning', () => {
    const s = validSigningSchema();
    s.fields.push({ id: 'f9', signerId: 'ghost', type: 'SIGNATURE', page: 1, x: 0, y: 0, w: 10, h: 10 });
    const { schema, notes } = repairSigningSchema(s);
    expect(schema.fields.map((f) => f.id)).toEqual(['f1', 'f2', 'f3']);
    expect(notes).toEqual([{ path: 'fields.3.signerId', level: 'warning', message: 'no signer "ghost"; field dropped' }]);
  });

  it('partial or unknown JSON is coerced', () => {
    const { schema } = repairSigningSchema({
      document: { name: 'x.pdf', pageCount: '3', key: 42 },
      signers: [{ id: 7, order: '2', verify: 'email_otp', color: '#ABCDEF', extra: true }, 'nope', { label: 'no id' }, { id: '7' }],
      fields: [{ id: 'a', signerId: '7', type: 'initials', page: '2', x: '10' }, { id: 'b', signerId: '7', type: 'STAMP' }],
      variables: [{ key: 'k', required: 'true' }, { key: 'k' }],
      routing: 'PARALLEL',
      theme: 'dark',
    });
    expect(schema).toEqual({
      document: { key: '42', name: 'x.pdf', pageCount: 3 },
      signers: [{ id: '7', label: '7', order: 2, verify: 'EMAIL_OTP', color: '#abcdef' }],
      fields: [{ id: 'a', signerId: '7', type: 'INITIALS', page: 2, x: 10, y: 0, w: 60, h: 40 }],
      variables: [{ key: 'k', label: 'k', required: true }],
      routing: 'parallel',
    });
  });

  it('anything that is not an object reads as the empty schema', () => {
    for (const raw of [null, 3, 'x', [1, 2], undefined]) expect(repairSigningSchema(raw).schema).toEqual(emptySigningSchema());
    expect(repairSigningSchema(undefined).notes).toEqual([]);
    expect(repairSigningSchema([]).notes).toEqual([{ path: '', level: 'warning', message: 'not a signing schema object; read as the empty schema' }]);
  });

  it('the source document replaces the draft document and keeps the rest as stored', () => {
    const stored = { ...validSigningSchema(), theme: 'kept as stored' };
    const next = draftWithDocument(stored, { key: 'k2', name: 'new.pdf', pageCount: 5 });
    expect(next).toEqual({ ...stored, document: { key: 'k2', name: 'new.pdf', pageCount: 5 } });
    expect(draftWithDocument('junk', { key: 'k', name: 'n.pdf', pageCount: 1 })).toEqual({ ...emptySigningSchema(), document: { key: 'k', name: 'n.pdf', pageCount: 1 } });
  });
});

describe('signing schema: JSON Schema of the campaign variables', () => {
  it('names each variable, requires the required ones and nothing else', () => {
    const js = signatureDefinitionRules.jsonSchema(validSigningSchema()) as Record<string, unknown>;
    expect(js).toMatchObject({ type: 'object', properties: { salary: { type: 'string', title: 'Salary' } }, required: ['salary'], additionalProperties: false });
    expect(variablesJsonSchema(emptySigningSchema())).toMatchObject({ properties: {}, required: [] });
  });
});

// Arbitrary JSON that looks like a signing schema often enough to reach every coercion.
const scalar = fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: -5, max: 20 }), fc.double(), fc.boolean(), fc.constant(null));
const idLike = fc.oneof(fc.constantFrom('a', 'b', 'c', ' a ', ''), fc.integer({ min: 0, max: 3 }), scalar);
const signerArb = fc.record(
  { id: idLike, label: fc.oneof(fc.string({ maxLength: 5 }), scalar), order: fc.oneof(fc.integer({ min: -1, max: 4 }), scalar), verify: fc.oneof(fc.constantFrom(...VERIFY_METHODS, 'sms_otp', 'x'), scalar), color: fc.oneof(fc.constantFrom('#00ff00', 'red'), scalar) },
  { requiredKeys: [] },
);
const fieldArb = fc.record(
  {
    id: idLike,
    signerId: idLike,
    type: fc.oneof(fc.constantFrom(...FIELD_TYPES, 'date', 'STAMP'), scalar),
    page: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.constantFrom('2', 'x'), scalar),
    x: fc.oneof(fc.integer({ min: -10, max: 15_000 }), scalar),
    y: fc.oneof(fc.integer({ min: -10, max: 15_000 }), scalar),
    w: fc.oneof(fc.integer({ min: -10, max: 500 }), scalar),
    h: fc.oneof(fc.integer({ min: -10, max: 500 }), scalar),
  },
  { requiredKeys: [] },
);
const schemaLike = fc.record(
  {
    document: fc.oneof(fc.record({ key: fc.oneof(fc.uuid(), scalar), name: fc.oneof(fc.string({ maxLength: 5 }), scalar), pageCount: fc.oneof(fc.integer({ min: -1, max: 6 }), scalar) }, { requiredKeys: [] }), scalar),
    signers: fc.oneof(fc.array(fc.oneof(signerArb, scalar), { maxLength: 5 }), scalar),
    fields: fc.oneof(fc.array(fc.oneof(fieldArb, scalar), { maxLength: 8 }), scalar),
    variables: fc.oneof(fc.array(fc.oneof(fc.record({ key: idLike, label: scalar, required: scalar }, { requiredKeys: [] }), scalar), { maxLength: 4 }), scalar),
    routing: fc.oneof(fc.constantFrom(...ROUTINGS, 'PARALLEL', 'round-robin'), scalar),
    extra: scalar,
  },
  { requiredKeys: [] },
);
const anyInput = fc.oneof(schemaLike, fc.jsonValue());

describe('signing schema: properties', () => {
  it('check and repair never throw, whatever the JSON', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        checkSigningSchema(raw);
        repairSigningSchema(raw);
      }),
      { numRuns: 500 },
    );
  });

  it('repair is idempotent and its result needs no further repair', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const once = repairSigningSchema(raw).schema;
        const twice = repairSigningSchema(once);
        expect(twice.schema).toEqual(once);
        expect(twice.notes).toEqual([]);
      }),
      { numRuns: 500 },
    );
  });

  it('a repaired schema is well formed: unique ids, every field has its signer, enums and colours valid', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const s = repairSigningSchema(raw).schema;
        const signerIds = s.signers.map((x) => x.id);
        expect(new Set(signerIds).size).toBe(signerIds.length);
        expect(new Set(s.fields.map((f) => f.id)).size).toBe(s.fields.length);
        expect(new Set(s.variables.map((v) => v.key)).size).toBe(s.variables.length);
        for (const f of s.fields) {
          expect(signerIds).toContain(f.signerId);
          expect(FIELD_TYPES).toContain(f.type);
          for (const n of [f.page, f.x, f.y, f.w, f.h]) expect(Number.isFinite(n)).toBe(true);
        }
        for (const x of s.signers) {
          expect(Number.isInteger(x.order) && x.order >= 1).toBe(true);
          if (x.verify !== undefined) expect(VERIFY_METHODS).toContain(x.verify);
          if (x.color !== undefined) expect(x.color).toMatch(SIGNER_COLOR);
        }
        expect(ROUTINGS).toContain(s.routing);
      }),
      { numRuns: 500 },
    );
  });

  it('the problems of a stored value are its repair notes (warnings only) plus the check of the repaired schema', () => {
    fc.assert(
      fc.property(anyInput, (raw) => {
        const { schema, notes } = repairSigningSchema(raw);
        expect(notes.every((n) => n.level === 'warning')).toBe(true);
        expect(checkSigningSchema(raw)).toEqual([...notes, ...checkRepairedSchema(schema)]);
        expect(hasErrors(checkSigningSchema(raw))).toBe(hasErrors(checkRepairedSchema(schema)));
      }),
      { numRuns: 300 },
    );
  });

  it('any page above the page count is an error on that field', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50 }), fc.integer({ min: 1, max: 60 }), (pageCount, page) => {
        const s = validSigningSchema(pageCount);
        s.fields[1]!.page = page;
        const flagged = errorsOf(s).some((p) => p.path === 'fields.1.page');
        expect(flagged).toBe(page > pageCount);
      }),
    );
  });
});
