// Values for the request side of the OpenAPI document: a plausible valid value for a schema (so
// a request reaches past validation of the other fields), and the leaves a bad value can replace.
import { randomUUID } from 'node:crypto';
import { resolve, type Doc, type Schema } from './openapi-inputs';

const PATTERN_CANDIDATES = ['acme', 'ABC', 'abc', 'abc-1', 'EU-SUPPORT', '+14155550123', '123', 'FM-K7QX05MAR26', 'application/pdf', '0'.repeat(64), 'x'];

const typesOf = (s: Schema): string[] => (Array.isArray(s.type) ? s.type : s.type ? [s.type] : []);

/** The first branch of a union that is not `null`. */
function branch(doc: Doc, s: Schema): Schema {
  const alts: Schema[] = s.anyOf ?? s.oneOf ?? [];
  return resolve(doc, alts.find((a) => resolve(doc, a).type !== 'null') ?? alts[0]);
}

export function validValue(doc: Doc, raw: Schema | undefined, depth = 0): unknown {
  const s = resolve(doc, raw);
  if (depth > 8) return undefined;
  if (s.example !== undefined) return s.example;
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf || s.oneOf) return validValue(doc, branch(doc, s), depth + 1);
  if (s.allOf) return Object.assign({}, ...s.allOf.map((a: Schema) => validValue(doc, a, depth + 1)));
  if (s.default !== undefined) return s.default;
  const t = typesOf(s).find((x) => x !== 'null');
  switch (t) {
    case 'string': {
      if (s.format === 'uuid') return randomUUID();
      if (s.format === 'date-time') return new Date().toISOString();
      if (s.format === 'date') return '2025-12-24';
      if (s.format === 'email') return 'someone@example.com';
      if (s.pattern) {
        const re = new RegExp(s.pattern);
        return PATTERN_CANDIDATES.find((c) => re.test(c)) ?? 'x';
      }
      return 'x'.repeat(Math.max(s.minLength ?? 1, 1));
    }
    case 'integer':
    case 'number':
      return Math.min(Math.max(s.minimum ?? 1, 1), s.maximum ?? Number.MAX_SAFE_INTEGER);
    case 'boolean':
      return true;
    case 'array':
      return Array.from({ length: s.minItems ?? 0 }, () => validValue(doc, s.items, depth + 1));
    case 'object':
    case undefined: {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries<Schema>(s.properties ?? {})) {
        const value = validValue(doc, v, depth + 1);
        if (value !== undefined) out[k] = value;
      }
      return out;
    }
    default:
      return undefined;
  }
}

export type Leaf = { path: string[]; kind: 'string' | 'integer' | 'json' };

/** The string, integer and free-form JSON fields of a body schema (first branch of unions). */
export function leaves(doc: Doc, raw: Schema | undefined, path: string[] = [], depth = 0): Leaf[] {
  const s = resolve(doc, raw);
  if (depth > 6) return [];
  if (s['x-json-bounds'] !== undefined) return [{ path, kind: 'json' }];
  if (s.enum || s.const !== undefined) return [];
  if (s.anyOf || s.oneOf) return leaves(doc, branch(doc, s), path, depth + 1);
  const types = typesOf(s);
  if (types.includes('string')) return s.format === 'binary' ? [] : [{ path, kind: 'string' }];
  if (types.includes('integer') || types.includes('number')) return [{ path, kind: 'integer' }];
  if (s.properties) return Object.entries<Schema>(s.properties).flatMap(([k, v]) => leaves(doc, v, [...path, k], depth + 1));
  if (types.includes('object') || types.length === 0) return [{ path, kind: 'json' }];
  return [];
}

export function setAt(value: unknown, path: string[], leaf: unknown): unknown {
  if (path.length === 0) return leaf;
  const copy: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  copy[path[0]!] = setAt(copy[path[0]!] ?? {}, path.slice(1), leaf);
  return copy;
}
