// Object keys are built from client input (processRef, filename), so every
// segment is checked in its raw form and in every percent-decoded form: a
// value that is harmless here may be decoded by a proxy, S3 tooling or a
// browser later, so "%2e%2e%2f" is refused just like "../".
import { DocumentInputError, type DocumentInputReason } from './errors';

export { DocumentInputError, type DocumentInputReason } from './errors';

/** Longest key segment (UTF-8 bytes); three segments stay well under S3's 1024-byte key limit. */
export const MAX_SEGMENT_BYTES = 200;
/** Longest original filename (UTF-8 bytes), the usual file-system limit. */
export const MAX_FILENAME_BYTES = 255;
const MAX_SLUG_BASE = 80;
const MAX_SLUG_EXT = 10;
// Deeper nesting than this is not an honest name.
const MAX_DECODE_ROUNDS = 5;

export function validateKeySegment(name: string, value: unknown): string {
  return checkText(name, value, MAX_SEGMENT_BYTES);
}

/** Refuses a filename with traversal material instead of slugging it away; returns it unchanged. */
export function validateFilename(filename: unknown, field = 'filename'): string {
  return checkText(field, filename, MAX_FILENAME_BYTES);
}

/** Lower-case ASCII slug that keeps a short extension; never empty. */
export function slugFilename(filename: string): string {
  const ascii = filename.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  const dot = ascii.lastIndexOf('.');
  let base = dot > 0 ? ascii.slice(0, dot) : ascii;
  let ext = dot > 0 ? ascii.slice(dot + 1).replace(/[^a-z0-9]/g, '') : '';
  if (ext.length > MAX_SLUG_EXT) {
    // Not an extension we can keep; let it be part of the name.
    base = ascii;
    ext = '';
  }
  base = base
    .replace(/[^a-z0-9]+/g, '-')
    .slice(0, MAX_SLUG_BASE)
    .replace(/^-+|-+$/g, '');
  if (!base) base = 'file';
  return ext ? `${base}.${ext}` : base;
}

export interface ObjectKeyInput {
  tenantId: string;
  processRef: string;
  docId: string;
  filename: string;
}

export interface ObjectKeys {
  /** `{processRef}/{docId}-{slug}`: what the registry row keeps (spec: tenant-relative). */
  storageKey: string;
  /** `{tenantId}/{storageKey}`: where the bytes live in the bucket. */
  physicalKey: string;
}

/** Both keys of a new document, every segment validated first. */
export function objectKeys(input: ObjectKeyInput): ObjectKeys {
  const tenantId = validateKeySegment('tenantId', input.tenantId);
  const processRef = validateKeySegment('processRef', input.processRef);
  const docId = validateKeySegment('docId', input.docId);
  const filename = validateFilename(input.filename);
  const storageKey = `${processRef}/${docId}-${slugFilename(filename)}`;
  return { storageKey, physicalKey: `${tenantId}/${storageKey}` };
}

/**
 * The bucket key of a stored tenant-relative key. The tenant prefix comes from the caller's own
 * tenant, never from the row or from input, so a key cannot leave its tenant's prefix.
 */
export function physicalKey(tenantId: string, storageKey: string): string {
  return `${validateKeySegment('tenantId', tenantId)}/${storageKey}`;
}

/** `{tenantId}/{processRef}/{docId}-{slug}`: the physical key of `objectKeys`. */
export function buildObjectKey(input: ObjectKeyInput): string {
  return objectKeys(input).physicalKey;
}

function checkText(field: string, value: unknown, maxBytes: number): string {
  if (typeof value !== 'string') throw new DocumentInputError(field, 'not-a-string');
  if (value.length === 0) throw new DocumentInputError(field, 'empty');
  if (Buffer.byteLength(value, 'utf8') > maxBytes) {
    throw new DocumentInputError(field, 'too-long', `${field} is longer than ${maxBytes} bytes`);
  }
  const rawProblem = problemOf(value);
  if (rawProblem) throw new DocumentInputError(field, rawProblem, `${field} contains a forbidden ${describe(rawProblem)}`);

  let current = value;
  for (let round = 0; ; round++) {
    const decoded = percentDecode(current);
    if (decoded === 'overlong') {
      throw new DocumentInputError(field, 'malformed-encoding', `${field} contains an overlong UTF-8 percent-encoding`);
    }
    if (decoded === current) return value;
    if (round >= MAX_DECODE_ROUNDS) {
      throw new DocumentInputError(field, 'malformed-encoding', `${field} is percent-encoded too many times`);
    }
    const problem = problemOf(decoded);
    if (problem) {
      throw new DocumentInputError(field, 'encoded-forbidden', `${field} contains a percent-encoded ${describe(problem)}`);
    }
    current = decoded;
  }
}

// C0/C1 controls, DEL, line/paragraph separators and bidi controls (which
// disguise an extension, e.g. "invoice\u202Efdp.exe").
export const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

function problemOf(text: string): DocumentInputReason | undefined {
  if (CONTROL.test(text)) return 'control-character';
  if (/[/\\]/.test(text)) return 'separator';
  if (text === '.' || text.includes('..')) return 'dot-segment';
  // NFKC folds look-alikes a normalising consumer would turn into separators
  // or dot segments (U+FF0F fullwidth solidus, U+2025 two-dot leader). Only a
  // whole-segment dot form is dangerous once separators are excluded, so an
  // ellipsis ("Draft… v2.pdf", NFKC "...") inside a name stays allowed.
  const folded = text.normalize('NFKC');
  if (CONTROL.test(folded)) return 'control-character';
  if (/[/\\]/.test(folded)) return 'separator';
  if (folded === '.' || folded === '..') return 'dot-segment';
  return undefined;
}

function describe(reason: DocumentInputReason): string {
  switch (reason) {
    case 'control-character':
      return 'control character';
    case 'separator':
      return 'path separator';
    case 'dot-segment':
      return 'dot segment ("." or "..")';
    default:
      return reason;
  }
}

/**
 * One round of percent-decoding (also IIS-style %uXXXX). Runs of %XX are
 * decoded as UTF-8; invalid UTF-8 becomes U+FFFD, except overlong forms of
 * ASCII (%c0%ae is "." to lax decoders), which are refused outright.
 */
function percentDecode(text: string): string | 'overlong' {
  let overlong = false;
  const out = text
    .replace(/%u([0-9a-fA-F]{4})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)))
    .replace(/(?:%[0-9a-fA-F]{2})+/g, (run) => {
      const bytes = Uint8Array.from(run.slice(1).split('%'), (h) => Number.parseInt(h, 16));
      if (hasOverlong(bytes)) overlong = true;
      return new TextDecoder('utf-8').decode(bytes);
    });
  return overlong ? 'overlong' : out;
}

function hasOverlong(bytes: Uint8Array): boolean {
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i] ?? 0;
    const next = bytes[i + 1] ?? 0;
    if (b === 0xc0 || b === 0xc1) return true;
    if (b === 0xe0 && next >= 0x80 && next < 0xa0) return true;
    if (b === 0xf0 && next >= 0x80 && next < 0x90) return true;
  }
  return false;
}
