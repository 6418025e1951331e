// HTTP Range for downloads (RFC 9110 §14). Only one range is served; a
// request for several gets the whole body with 200, which §14.2 allows (a
// server MAY ignore Range) and saves us multipart/byteranges.

export type ParsedRange =
  | { kind: 'none' }
  | { kind: 'single'; start: number; end: number }
  | { kind: 'multiple' }
  | { kind: 'unsatisfiable' };

type Spec = { first: number; last?: number } | { suffix: number };

// int-range "a-b" / "a-", suffix-range "-n"; digits only, as in the grammar.
const SPEC = /^(?:(\d+)-(\d*)|-(\d+))$/;

/**
 * Parses a Range header against a representation of `size` bytes.
 * Missing, malformed or non-"bytes" headers give 'none' (ignored, answer 200),
 * as do suffix ranges of an empty representation (nothing to slice).
 */
export function parseRange(header: string | null | undefined, size: number): ParsedRange {
  if (!header) return { kind: 'none' };
  const eq = header.indexOf('=');
  if (eq < 0 || header.slice(0, eq).trim().toLowerCase() !== 'bytes') return { kind: 'none' };

  const specs: Spec[] = [];
  // Lists may carry empty elements (RFC 9110 §5.6.1), which are skipped.
  for (const element of header.slice(eq + 1).split(',')) {
    const text = element.trim();
    if (!text) continue;
    const m = SPEC.exec(text);
    if (!m) return { kind: 'none' };
    if (m[3] !== undefined) {
      specs.push({ suffix: Number(m[3]) });
    } else {
      const first = Number(m[1]);
      const last = m[2] ? Number(m[2]) : undefined;
      if (last !== undefined && last < first) return { kind: 'none' };
      specs.push({ first, last });
    }
  }
  if (specs.length === 0) return { kind: 'none' };

  const resolved = specs.map((spec) => resolve(spec, size));
  if (resolved.every((r) => r.kind === 'unsatisfiable')) return { kind: 'unsatisfiable' };
  if (specs.length > 1) return { kind: 'multiple' };
  return resolved[0] ?? { kind: 'none' };
}

function resolve(spec: Spec, size: number): ParsedRange {
  if ('suffix' in spec) {
    if (spec.suffix === 0) return { kind: 'unsatisfiable' };
    if (size === 0) return { kind: 'none' };
    return { kind: 'single', start: Math.max(0, size - spec.suffix), end: size - 1 };
  }
  if (spec.first >= size) return { kind: 'unsatisfiable' };
  return { kind: 'single', start: spec.first, end: Math.min(spec.last ?? size - 1, size - 1) };
}

/** `bytes a-b/size` for a 206, or `bytes *\/size` (pass null) for a 416. */
export function contentRangeHeader(range: { start: number; end: number } | null, size: number): string {
  return range ? `bytes ${range.start}-${range.end}/${size}` : `bytes */${size}`;
}

/** The S3 GetObject Range value for a single parsed range. */
export function s3RangeHeader(range: { start: number; end: number }): string {
  return `bytes=${range.start}-${range.end}`;
}
