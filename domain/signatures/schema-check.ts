// Validation of a signing schema (geometry rules 3 and 5): the problems of what is stored are the
// repair's notes (warnings) plus the judgement of the repaired schema, whose paths point into the
// repaired draft (what a read shows). Error-level problems block check-in, sign-off and publish.
import type { SchemaProblem } from '../definitions/schema-rules';
import { repairSigningSchema } from './schema-repair';
import { SCHEMA_LIMITS, VARIABLE_KEY, type SigningField, type SigningSchema } from './signing-schema';

const error = (path: string, message: string): SchemaProblem => ({ path, level: 'error', message });
const warning = (path: string, message: string): SchemaProblem => ({ path, level: 'warning', message });

/** Verification methods the spec names whose delivery is not built (a campaign will refuse them). */
const NOT_OPERATIONAL = new Set(['SMS_OTP', 'IDV']);

function checkDocument(s: SigningSchema): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  if (s.document.name.trim() === '') out.push(error('document.name', 'the document needs a name'));
  if (!s.document.key) out.push(error('document.key', 'no source PDF yet: upload one (POST .../document)'));
  else if (s.document.pageCount === undefined) out.push(error('document.pageCount', 'the page count of the source PDF is unknown: upload it again'));
  return out;
}

function checkSigners(s: SigningSchema): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  if (s.signers.length === 0) out.push(error('signers', 'at least one signer is needed'));
  if (s.signers.length > SCHEMA_LIMITS.signers) out.push(error('signers', `at most ${SCHEMA_LIMITS.signers} signers`));
  s.signers.forEach((signer, i) => {
    if (signer.label.trim() === '') out.push(error(`signers.${i}.label`, 'the signer needs a label'));
    if (!s.fields.some((f) => f.signerId === signer.id && f.type === 'SIGNATURE')) {
      out.push(error(`signers.${i}`, `signer "${signer.id}" has no SIGNATURE field`));
    }
    if (signer.verify && NOT_OPERATIONAL.has(signer.verify)) {
      out.push(warning(`signers.${i}.verify`, `${signer.verify} is not operational yet; a campaign with this signer will be refused`));
    }
  });
  return out;
}

function checkField(f: SigningField, i: number, pageCount: number | undefined): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  const path = `fields.${i}`;
  const max = SCHEMA_LIMITS.maxCoordinate;
  if (!Number.isInteger(f.page) || f.page < 1) out.push(error(`${path}.page`, 'pages are whole numbers from 1'));
  else if (pageCount !== undefined && f.page > pageCount) {
    out.push(error(`${path}.page`, `page ${f.page} is out of range: the document has ${pageCount} page${pageCount === 1 ? '' : 's'}`));
  }
  for (const key of ['x', 'y'] as const) {
    if (f[key] < 0 || f[key] > max) out.push(error(`${path}.${key}`, `must be between 0 and ${max} points`));
  }
  for (const key of ['w', 'h'] as const) {
    if (f[key] <= 0 || f[key] > max) out.push(error(`${path}.${key}`, `must be above 0 and at most ${max} points`));
  }
  if (f.x + f.w > max || f.y + f.h > max) out.push(error(path, `the field reaches beyond ${max} points`));
  return out;
}

function checkVariables(s: SigningSchema): SchemaProblem[] {
  const out: SchemaProblem[] = [];
  if (s.variables.length > SCHEMA_LIMITS.variables) out.push(error('variables', `at most ${SCHEMA_LIMITS.variables} variables`));
  s.variables.forEach((v, i) => {
    if (!VARIABLE_KEY.test(v.key)) out.push(error(`variables.${i}.key`, 'letters, digits and _ only, not starting with a digit'));
    if (v.label.trim() === '') out.push(error(`variables.${i}.label`, 'the variable needs a label'));
  });
  return out;
}

/** The judgement of a repaired schema alone. */
export function checkRepairedSchema(s: SigningSchema): SchemaProblem[] {
  const fields = s.fields.flatMap((f, i) => checkField(f, i, s.document.pageCount));
  if (s.fields.length > SCHEMA_LIMITS.fields) fields.push(error('fields', `at most ${SCHEMA_LIMITS.fields} fields`));
  return [...checkDocument(s), ...checkSigners(s), ...fields, ...checkVariables(s)];
}

/** Every problem of a stored or submitted draft: what its repair changed, then what is wrong with the result. */
export function checkSigningSchema(raw: unknown): SchemaProblem[] {
  const { schema, notes } = repairSigningSchema(raw);
  return [...notes, ...checkRepairedSchema(schema)];
}
