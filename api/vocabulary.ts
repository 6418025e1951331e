// The shared vocabulary of input values (DESIGN "Input at the edge"): strings PostgreSQL can
// store (no NUL, no lone surrogates), integers within their column's range, and free-form JSON
// bounded in size, depth and keys. Whatever passes reaches the database without a 500.
import { z } from '@hono/zod-openapi';

export const INT32_MAX = 2_147_483_647;

/** Text columns refuse NUL; a lone surrogate cannot be encoded as UTF-8 (and jsonb refuses its escape). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isStorable = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s);
const STORABLE = 'must not contain NUL characters or lone surrogates';

/**
 * OpenAPI marks of the vocabulary: `x-storable` on a string (or on an object whose every string
 * is refined), `x-json-bounds` on free-form JSON. The lint test `openapi-vocabulary` holds every
 * request schema of /openapi.json to them, so an unbounded value cannot be written unnoticed.
 */
const STORABLE_MARK = { 'x-storable': true } as const;

/** A bounded string; trimmed unless told otherwise. */
export const text = ({ min = 1, max, trim = true }: { min?: number; max: number; trim?: boolean }) =>
  (trim ? z.string().trim() : z.string()).min(min).max(max).refine(isStorable, STORABLE).openapi(STORABLE_MARK);

/** Issues for every string (keys included) in a value that PostgreSQL could not store. */
function refuseUnstorable(value: unknown, ctx: z.RefinementCtx, path: (string | number)[] = []): void {
  if (typeof value === 'string') {
    if (!isStorable(value)) ctx.addIssue({ code: 'custom', path, message: STORABLE });
  } else if (Array.isArray(value)) {
    value.forEach((v, i) => refuseUnstorable(v, ctx, [...path, i]));
  } else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (!isStorable(k)) ctx.addIssue({ code: 'custom', path: [...path, k], message: `keys ${STORABLE}` });
      refuseUnstorable(v, ctx, [...path, k]);
    }
  }
}

/** `schema` with every string inside it (a string, or an object's fields at any depth) refined to be storable. */
export const storable = <T extends z.ZodType>(schema: T): T =>
  schema.superRefine((v, ctx) => refuseUnstorable(v, ctx)).openapi(STORABLE_MARK) as unknown as T;

/**
 * A credential every wrong value of which must get the route's one refusal (the spec answers an
 * unknown, malformed or revoked token alike, never with a 400 that sets shapes apart): documented
 * by its closed pattern and length, and a value outside them reads as absent.
 */
export const credential = (pattern: RegExp, maxLength: number) =>
  z.string().max(maxLength).regex(pattern).optional().catch(undefined).openapi({ type: 'string', pattern: pattern.source, maxLength });

/** A credential in the path: required, and a value outside its pattern reads as '' (which no credential is). */
export const credentialParam = (name: string, pattern: RegExp, maxLength: number) =>
  z
    .string()
    .max(maxLength)
    .regex(pattern)
    .catch('')
    .openapi({ type: 'string', pattern: pattern.source, maxLength, param: { name, in: 'path', required: true } });

/** An integer that fits an `integer` column. */
export const int32 = ({ min = 0, max = INT32_MAX }: { min?: number; max?: number } = {}) => z.number().int().min(min).max(max);

/** An integer path or query value (strings on the wire). */
export const int32Param = ({ min = 1, max = INT32_MAX }: { min?: number; max?: number } = {}) =>
  z.coerce.number().int().min(min).max(max).openapi({ type: 'integer', minimum: min, maximum: max });

/** An integer that fits a `bigint` column and a JavaScript number (2^53 - 1). */
export const int64 = ({ min = 0 }: { min?: number } = {}) =>
  z.number().int().min(min).max(Number.MAX_SAFE_INTEGER).openapi({ format: 'int64' });

/** A `bigint` path or query value (strings on the wire). */
export const int64Param = ({ min = 1 }: { min?: number } = {}) =>
  z.coerce.number().int().min(min).max(Number.MAX_SAFE_INTEGER).openapi({ type: 'integer', format: 'int64', minimum: min, maximum: Number.MAX_SAFE_INTEGER });

export interface JsonBounds {
  /** Serialised size in UTF-8 bytes. */
  maxBytes: number;
  /** Nesting of arrays and objects; the value itself is depth 0. */
  maxDepth: number;
  /** Object keys and array elements, counted over the whole value. */
  maxNodes: number;
  maxKeyLength: number;
}

type Path = (string | number)[];

/** Issues of a parsed JSON value against the bounds; stops early so a hostile value costs little. */
export function jsonIssues(value: unknown, b: JsonBounds): { path: Path; message: string }[] {
  const issues: { path: Path; message: string }[] = [];
  const stack: { v: unknown; depth: number; path: Path }[] = [{ v: value, depth: 0, path: [] }];
  let nodes = 0;
  while (stack.length > 0 && issues.length < 10) {
    const { v, depth, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (!isStorable(v)) issues.push({ path, message: STORABLE });
      continue;
    }
    if (typeof v !== 'object' || v === null) continue;
    if (depth >= b.maxDepth) {
      issues.push({ path, message: `must not nest deeper than ${b.maxDepth} levels` });
      continue;
    }
    const entries: [string | number, unknown][] = Array.isArray(v) ? v.map((e, i) => [i, e]) : Object.entries(v);
    nodes += entries.length;
    if (nodes > b.maxNodes) {
      issues.push({ path: [], message: `must not hold more than ${b.maxNodes} keys and elements` });
      break;
    }
    for (const [k, child] of entries) {
      if (typeof k === 'string' && (!isStorable(k) || k.length > b.maxKeyLength)) {
        issues.push({ path: [...path, k.slice(0, 50)], message: `keys are at most ${b.maxKeyLength} characters and ${STORABLE}` });
      }
      stack.push({ v: child, depth: depth + 1, path: [...path, k] });
    }
  }
  if (issues.length === 0) {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
    if (bytes > b.maxBytes) issues.push({ path: [], message: `must not be larger than ${b.maxBytes} bytes serialised (is ${bytes})` });
  }
  return issues;
}

const boundsMark = (b: JsonBounds) => ({ 'x-json-bounds': { ...b } });

/** Free-form JSON, required and not null, within the bounds. */
export const boundedJson = (b: JsonBounds) =>
  z
    .unknown()
    .superRefine((value, ctx) => {
      if (value === undefined || value === null) {
        ctx.addIssue({ code: 'custom', message: 'is required and must not be null' });
        return;
      }
      for (const issue of jsonIssues(value, b)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    })
    .openapi(boundsMark(b));

/** A free-form JSON object (string keys, any values) within the bounds. */
export const boundedMap = (b: JsonBounds) =>
  z
    .record(z.string(), z.unknown())
    .superRefine((value, ctx) => {
      for (const issue of jsonIssues(value, b)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    })
    .openapi(boundsMark(b));

/** The instance token of an outbound form's recipient link, shared by the recipient API and its hosted respond page. */
export const RecipientTokenPath = z.object({
  token: z
    .string()
    .min(1)
    .max(100)
    .regex(/^[A-Za-z0-9_-]+$/, 'must be an instance token (base64url)')
    .openapi({ param: { name: 'token', in: 'path' }, description: 'The instance token of the recipient link' }),
});
