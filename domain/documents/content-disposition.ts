// Content-Disposition from a user-supplied filename (RFC 6266 + RFC 8187).
// The header must never let the name break out: no CR/LF, no quote or
// backslash in the quoted fallback, nothing but attr-chars in filename*.
import { CONTROL } from './storage-key';

export type DispositionType = 'attachment' | 'inline';

const FALLBACK_NAME = 'download';
const MAX_FALLBACK_CHARS = 150;
const MAX_NAME_CHARS = 255;

export function contentDisposition(filename: string, type: DispositionType = 'attachment'): string {
  const name = cleanName(filename) || FALLBACK_NAME;
  return `${type}; filename="${asciiFallback(name)}"; filename*=UTF-8''${encodeRfc8187(name)}`;
}

// Controls and path separators go in both forms: a client decoding
// filename* must not get a multi-line or directory-bearing name either.
const CONTROL_ALL = new RegExp(CONTROL.source, 'gu');

function cleanName(filename: string): string {
  const cleaned = toWellFormed(filename)
    .replace(CONTROL_ALL, '')
    .replace(/[/\\]/g, '_')
    .trim();
  // Cut by code point so a surrogate pair is never split.
  return Array.from(cleaned).slice(0, MAX_NAME_CHARS).join('');
}

// Quotes and backslashes would need quoted-pair escaping that browsers
// handle inconsistently; '%' is replaced because some browsers
// percent-decode the plain parameter (RFC 6266 appendix D).
function asciiFallback(name: string): string {
  const ascii = name
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .replace(/[^\x20-\x7e]/g, '_')
    .replace(/["\\%]/g, '_')
    .slice(0, MAX_FALLBACK_CHARS)
    .trim();
  return ascii || FALLBACK_NAME;
}

// RFC 8187 attr-char: ALPHA DIGIT ! # $ & + - . ^ _ ` | ~ ; encodeURIComponent
// also leaves ' ( ) * unescaped, which are not attr-chars.
function encodeRfc8187(name: string): string {
  return encodeURIComponent(name).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

// encodeURIComponent throws on lone surrogates.
function toWellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}
