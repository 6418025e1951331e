import { describe, expect, it } from 'vitest';
import { INT32_MAX } from '../../../api/vocabulary';
import { openApiDocument, operations, walk, type Schema } from '../../support/openapi-inputs';

const SAFE_FORMATS = new Set(['uuid', 'date', 'date-time', 'email', 'binary']);

/**
 * An anchored pattern that only admits listed characters (no negated class, no `.`, no `\S`
 * outside a class) cannot admit NUL or a lone surrogate; with no `*` or `+` its length is bounded.
 */
const outsideClasses = (p: string) => p.replace(/\\./g, 'e').replace(/\[(?!\^)[^\]]*\]/g, 'c');
const closedPattern = (p: string) => p.startsWith('^') && p.endsWith('$') && !/\[\^|\.|\\[SWD]/.test(outsideClasses(p)) && !p.includes('[^');
const boundedPattern = (p: string) => !/[*+]/.test(outsideClasses(p));

/** Why a request-side schema is not in the shared vocabulary (api/vocabulary.ts), or undefined. */
function violation(s: Schema, ancestors: Schema[]): string | undefined {
  if (ancestors.some((a) => a['x-json-bounds'] !== undefined)) return undefined;
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
  if (s.enum || s.const !== undefined) return undefined;
  if (types.includes('string')) {
    if (SAFE_FORMATS.has(s.format)) return undefined;
    const marked = [s, ...ancestors].some((a) => a['x-storable'] === true);
    const closed = s.pattern !== undefined && closedPattern(s.pattern);
    if (!marked && !closed) return 'string without the storable refinement (text(), storable()) or a closed pattern';
    if (s.maxLength === undefined && !(closed && boundedPattern(s.pattern))) return 'string without maxLength';
  }
  if (types.includes('integer') || types.includes('number')) {
    if (typeof s.minimum !== 'number' || typeof s.maximum !== 'number') return 'number without minimum and maximum';
    if (types.includes('integer') && s.format !== 'int64' && (s.maximum > INT32_MAX || s.minimum < -INT32_MAX - 1)) {
      return `integer beyond int32 (${s.minimum}..${s.maximum}); int64 columns say format: int64`;
    }
    if (s.maximum > Number.MAX_SAFE_INTEGER) return 'number beyond 2^53';
  }
  if (types.includes('array') && s.maxItems === undefined) return 'array without maxItems';
  const freeMap = types.includes('object') && (s.additionalProperties === undefined || s.additionalProperties === true || (typeof s.additionalProperties === 'object' && Object.keys(s.additionalProperties).length === 0));
  const anything = types.length === 0 && !s.anyOf && !s.oneOf && !s.allOf && !s.properties;
  if ((anything || (freeMap && !s.properties)) && s['x-json-bounds'] === undefined) return 'free-form JSON without bounds (boundedJson())';
  return undefined;
}

describe('every request value of /openapi.json is in the input vocabulary', () => {
  it('strings are storable and bounded, integers fit their column, JSON maps are bounded', async () => {
    const doc = await openApiDocument();
    const found: string[] = [];
    for (const o of operations(doc)) {
      const where = `${o.method.toUpperCase()} ${o.path}`;
      for (const p of o.params) walk(doc, p.schema, `${p.in}.${p.name}`, (s, at, above) => {
        const v = violation(s, above);
        if (v) found.push(`${where} ${at}: ${v}`);
      });
      if (o.body && o.body.type.includes('json')) walk(doc, o.body.schema, 'body', (s, at, above) => {
        const v = violation(s, above);
        if (v) found.push(`${where} ${at}: ${v}`);
      });
    }
    expect(found).toEqual([]);
  });
});
