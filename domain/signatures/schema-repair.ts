// Repair on read (geometry rule 4): whatever is stored reads as a valid signing schema. Types are
// coerced (numeric strings, lower-case enum values), unknown keys are ignored, unusable entries
// (no id, a duplicate id, an unknown field type, a field of a missing signer) are dropped. Values
// are not judged here: a page out of range or a negative width stays as stored so the check
// reports it as an error. Each coercion or drop is noted (a warning whose path points into the
// stored value), so an author sees what the repaired draft no longer holds.
import type { SchemaProblem } from '../definitions/schema-rules';
import {
  DEFAULT_FIELD_SIZE,
  emptySigningSchema,
  FIELD_TYPES,
  ROUTINGS,
  SCHEMA_LIMITS,
  SIGNER_COLOR,
  VERIFY_METHODS,
  type FieldType,
  type Signer,
  type SigningField,
  type SigningSchema,
  type SigningVariable,
  type SourceDocument,
} from './signing-schema';

type Obj = Record<string, unknown>;
const isObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

export interface Repaired {
  schema: SigningSchema;
  /** Warnings: what was coerced or dropped, with paths into the stored value. */
  notes: SchemaProblem[];
}

const TOP_KEYS = ['document', 'signers', 'fields', 'variables', 'routing'];

class Notes {
  readonly list: SchemaProblem[] = [];
  add(path: string, message: string) {
    this.list.push({ path, level: 'warning', message });
  }
}

/** A finite number from a number or a numeric string; undefined otherwise. */
function numberOf(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined;
  if (typeof v === 'string' && v.trim() !== '') {
    const n = Number(v);
    return Number.isFinite(n) ? n : undefined;
  }
  return undefined;
}

/** An identifier from a string or an integer, at most `max` characters; undefined when unusable. */
function idOf(v: unknown, max: number): string | undefined {
  const s = typeof v === 'number' && Number.isInteger(v) ? String(v) : typeof v === 'string' ? v.trim() : undefined;
  return s && s.length <= max ? s : undefined;
}

function enumOf<T extends string>(values: readonly T[], v: unknown, fold: (s: string) => string): T | undefined {
  if (typeof v !== 'string') return undefined;
  const folded = fold(v.trim());
  return values.find((x) => x === folded);
}

function labelOf(v: unknown, fallback: string, path: string, notes: Notes): string {
  if (typeof v === 'string') return v.slice(0, SCHEMA_LIMITS.labelLength);
  if (v !== undefined) notes.add(path, `not text; read as "${fallback}"`);
  return fallback;
}

function ignoreUnknown(o: Obj, known: readonly string[], path: string, notes: Notes) {
  for (const k of Object.keys(o)) if (!known.includes(k)) notes.add(path ? `${path}.${k}` : k, 'unknown property ignored');
}

function listOf(raw: Obj, key: string, notes: Notes): unknown[] {
  const v = raw[key];
  if (Array.isArray(v)) return v;
  if (v !== undefined) notes.add(key, 'not a list; read as empty');
  return [];
}

function repairDocument(raw: unknown, notes: Notes): SourceDocument {
  if (!isObject(raw)) {
    if (raw !== undefined) notes.add('document', 'not an object; read as a document without a name');
    return { name: '' };
  }
  ignoreUnknown(raw, ['key', 'name', 'pageCount'], 'document', notes);
  const doc: SourceDocument = { name: labelOf(raw.name, '', 'document.name', notes) };
  if (raw.key !== undefined) {
    const key = idOf(raw.key, SCHEMA_LIMITS.documentKeyLength);
    if (key) doc.key = key;
    else notes.add('document.key', 'not a document key; ignored');
  }
  if (raw.pageCount !== undefined) {
    const n = numberOf(raw.pageCount);
    if (n !== undefined && Number.isInteger(n) && n >= 1) doc.pageCount = n;
    else notes.add('document.pageCount', 'not a positive whole number; ignored');
  }
  return doc;
}

function repairSigners(raw: unknown[], notes: Notes): Signer[] {
  const out: Signer[] = [];
  raw.forEach((item, i) => {
    const path = `signers.${i}`;
    if (!isObject(item)) return notes.add(path, 'not an object; dropped');
    ignoreUnknown(item, ['id', 'label', 'order', 'verify', 'color'], path, notes);
    const id = idOf(item.id, SCHEMA_LIMITS.idLength);
    if (!id) return notes.add(`${path}.id`, `missing, empty or longer than ${SCHEMA_LIMITS.idLength} characters; signer dropped`);
    if (out.some((s) => s.id === id)) return notes.add(`${path}.id`, `duplicate signer id "${id}"; signer dropped`);
    let order = numberOf(item.order);
    if (order === undefined || !Number.isInteger(order) || order < 1) {
      order = out.length + 1;
      notes.add(`${path}.order`, `not a whole number from 1; read as ${order}`);
    }
    const signer: Signer = { id, label: labelOf(item.label, id, `${path}.label`, notes), order };
    if (item.verify !== undefined) {
      const verify = enumOf(VERIFY_METHODS, item.verify, (s) => s.toUpperCase());
      signer.verify = verify ?? 'NONE';
      if (!verify) notes.add(`${path}.verify`, `not one of ${VERIFY_METHODS.join(', ')}; read as NONE`);
    }
    if (item.color !== undefined) {
      if (typeof item.color === 'string' && SIGNER_COLOR.test(item.color)) signer.color = item.color.toLowerCase();
      else notes.add(`${path}.color`, 'not a #rrggbb colour; ignored');
    }
    out.push(signer);
  });
  return out;
}

function repairFields(raw: unknown[], signers: Signer[], notes: Notes): SigningField[] {
  const out: SigningField[] = [];
  raw.forEach((item, i) => {
    const path = `fields.${i}`;
    if (!isObject(item)) return notes.add(path, 'not an object; dropped');
    ignoreUnknown(item, ['id', 'signerId', 'type', 'page', 'x', 'y', 'w', 'h'], path, notes);
    const id = idOf(item.id, SCHEMA_LIMITS.idLength);
    if (!id) return notes.add(`${path}.id`, `missing, empty or longer than ${SCHEMA_LIMITS.idLength} characters; field dropped`);
    if (out.some((f) => f.id === id)) return notes.add(`${path}.id`, `duplicate field id "${id}"; field dropped`);
    const signerId = idOf(item.signerId, SCHEMA_LIMITS.idLength);
    if (!signerId || !signers.some((s) => s.id === signerId)) {
      return notes.add(`${path}.signerId`, `no signer "${String(item.signerId ?? '')}"; field dropped`);
    }
    const type = enumOf(FIELD_TYPES, item.type, (s) => s.toUpperCase());
    if (!type) return notes.add(`${path}.type`, `not one of ${FIELD_TYPES.join(', ')}; field dropped`);
    out.push({ id, signerId, type, ...repairGeometry(item, type, path, notes) });
  });
  return out;
}

function repairGeometry(item: Obj, type: FieldType, path: string, notes: Notes): Pick<SigningField, 'page' | 'x' | 'y' | 'w' | 'h'> {
  const fallback = { page: 1, x: 0, y: 0, ...DEFAULT_FIELD_SIZE[type] };
  const out = { ...fallback };
  for (const key of ['page', 'x', 'y', 'w', 'h'] as const) {
    const n = numberOf(item[key]);
    if (n === undefined) notes.add(`${path}.${key}`, `not a number; read as ${fallback[key]}`);
    else out[key] = n;
  }
  return out;
}

function repairVariables(raw: unknown[], notes: Notes): SigningVariable[] {
  const out: SigningVariable[] = [];
  raw.forEach((item, i) => {
    const path = `variables.${i}`;
    if (!isObject(item)) return notes.add(path, 'not an object; dropped');
    ignoreUnknown(item, ['key', 'label', 'required'], path, notes);
    const key = idOf(item.key, SCHEMA_LIMITS.idLength);
    if (!key) return notes.add(`${path}.key`, `missing, empty or longer than ${SCHEMA_LIMITS.idLength} characters; variable dropped`);
    if (out.some((v) => v.key === key)) return notes.add(`${path}.key`, `duplicate variable "${key}"; variable dropped`);
    const variable: SigningVariable = { key, label: labelOf(item.label, key, `${path}.label`, notes) };
    if (item.required !== undefined) {
      const required = item.required === true || item.required === 'true';
      if (!required && item.required !== false && item.required !== 'false') notes.add(`${path}.required`, 'not true or false; read as false');
      variable.required = required;
    }
    out.push(variable);
  });
  return out;
}

export function repairSigningSchema(raw: unknown): Repaired {
  const notes = new Notes();
  if (!isObject(raw)) {
    if (raw !== undefined && raw !== null) notes.add('', 'not a signing schema object; read as the empty schema');
    return { schema: emptySigningSchema(), notes: notes.list };
  }
  ignoreUnknown(raw, TOP_KEYS, '', notes);
  const signers = repairSigners(listOf(raw, 'signers', notes), notes);
  let routing = enumOf(ROUTINGS, raw.routing, (s) => s.toLowerCase());
  if (!routing) {
    if (raw.routing !== undefined) notes.add('routing', `not one of ${ROUTINGS.join(', ')}; read as sequential`);
    routing = 'sequential';
  }
  const schema: SigningSchema = {
    document: repairDocument(raw.document, notes),
    signers,
    fields: repairFields(listOf(raw, 'fields', notes), signers, notes),
    variables: repairVariables(listOf(raw, 'variables', notes), notes),
    routing,
  };
  return { schema, notes: notes.list };
}
