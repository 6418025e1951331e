// The shared vocabulary of input values (DESIGN "Input at the edge"): strings PostgreSQL can
// store (no NUL, no lone surrogates), integers within their column's range, and free-form JSON
// bounded in size, depth and keys. Whatever passes reaches the database without a 500.
import { z } from '@hono/zod-openapi';

export const INT32_MAX = 2_147_483_647;

/** Text columns refuse NUL; a lone surrogate cannot be encoded as UTF-8 (and jsonb refuses its escape). */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const isStorable = (s: string) => !s.includes('\u0000') && !LONE_SURROGATE.test(s);
const STORABLE = 'must not contain NUL characters or lone surrogates';

/** A bounded string; trimmed unless told otherwise. */
export const text = ({ min = 1, max, trim = true }: { min?: number; max: number; trim?: boolean }) =>
  (trim ? z.string().trim() : z.string()).min(min).max(max).refine(isStorable, STORABLE);

/** An integer that fits an `integer` column. */
export const int32 = ({ min = 0, max = INT32_MAX }: { min?: number; max?: number } = {}) => z.number().int().min(min).max(max);

/** An integer path or query value (strings on the wire). */
export const int32Param = ({ min = 1, max = INT32_MAX }: { min?: number; max?: number } = {}) => z.coerce.number().int().min(min).max(max);

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

/** Free-form JSON, required and not null, within the bounds. */
export const boundedJson = (b: JsonBounds) =>
  z.unknown().superRefine((value, ctx) => {
    if (value === undefined || value === null) {
      ctx.addIssue({ code: 'custom', message: 'is required and must not be null' });
      return;
    }
    for (const issue of jsonIssues(value, b)) ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  });
