import { describe, expect, it } from 'vitest';
import { contentDisposition } from '../../../domain/documents/content-disposition';

// A header value must be one line of visible ASCII (plus space/tab).
const SAFE_HEADER = /^[\x20-\x7e]*$/;

function params(header: string): { fallback: string; encoded: string } {
  const m = /^(?:attachment|inline); filename="([^"\\]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(header);
  if (!m) throw new Error(`unexpected header shape: ${header}`);
  return { fallback: m[1] ?? '', encoded: m[2] ?? '' };
}

describe('contentDisposition', () => {
  it('plain ASCII names appear in both forms', () => {
    expect(contentDisposition('report.pdf')).toBe(`attachment; filename="report.pdf"; filename*=UTF-8''report.pdf`);
  });

  it('supports inline', () => {
    expect(contentDisposition('a.png', 'inline')).toMatch(/^inline; /);
  });

  it('keeps non-ASCII in filename* and transliterates the fallback', () => {
    const header = contentDisposition('Résumé 契約書.pdf');
    const { fallback, encoded } = params(header);
    expect(fallback).toBe('Resume ___.pdf');
    expect(decodeURIComponent(encoded)).toBe('Résumé 契約書.pdf');
  });

  it.each([
    'a\r\nSet-Cookie: x=1.pdf',
    'a\nLocation: https://evil.example/.pdf',
    'a\rb.pdf',
    'a\0b.pdf',
    'a\u0085b.pdf',
    'a\u2028b.pdf',
    '\r\n\r\n<html>',
  ])('cannot inject a header or body: %j', (name) => {
    const header = contentDisposition(name);
    expect(header).toMatch(SAFE_HEADER);
    expect(header).not.toMatch(/[\r\n\0]/);
    const { encoded } = params(header);
    expect(decodeURIComponent(encoded)).not.toMatch(/[\r\n\0\u0085\u2028]/);
  });

  it.each(['a"b.pdf', 'a\\b.pdf', '"; filename="evil.exe', 'x\\"; evil=1'])('quotes and backslashes cannot end the quoted string: %j', (name) => {
    const header = contentDisposition(name);
    expect(header).toMatch(SAFE_HEADER);
    const { fallback, encoded } = params(header);
    expect(fallback).not.toMatch(/["\\]/);
    expect(encoded).not.toMatch(/["\\;= ]/);
  });

  it('encodes the characters encodeURIComponent leaves but RFC 8187 does not allow', () => {
    const { encoded } = params(contentDisposition("it's (1)*.pdf"));
    expect(encoded).toBe('it%27s%20%281%29%2A.pdf');
  });

  it('replaces % in the fallback (some browsers decode it) but keeps it in filename*', () => {
    const { fallback, encoded } = params(contentDisposition('50%2e off.pdf'));
    expect(fallback).toBe('50_2e off.pdf');
    expect(decodeURIComponent(encoded)).toBe('50%2e off.pdf');
  });

  it('turns path separators into underscores', () => {
    const { fallback, encoded } = params(contentDisposition('../../etc/passwd'));
    expect(fallback).toBe('.._.._etc_passwd');
    expect(decodeURIComponent(encoded)).toBe('.._.._etc_passwd');
  });

  it('drops bidi overrides that disguise an extension', () => {
    const { encoded } = params(contentDisposition('invoice\u202Efdp.exe'));
    expect(decodeURIComponent(encoded)).toBe('invoicefdp.exe');
  });

  it('survives lone surrogates and empty or all-control names', () => {
    expect(() => contentDisposition('a\ud800b.pdf')).not.toThrow();
    expect(params(contentDisposition('')).fallback).toBe('download');
    expect(params(contentDisposition('\r\n\t')).fallback).toBe('download');
    expect(params(contentDisposition('契約書')).fallback).toBe('___');
  });

  it('bounds the length without splitting a surrogate pair', () => {
    const header = contentDisposition('😀'.repeat(400));
    expect(header.length).toBeLessThan(4000);
    expect(() => decodeURIComponent(params(header).encoded)).not.toThrow();
  });
});
