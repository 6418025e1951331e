import { describe, expect, it } from 'vitest';
import {
  buildObjectKey,
  DocumentInputError,
  MAX_FILENAME_BYTES,
  MAX_SEGMENT_BYTES,
  slugFilename,
  validateFilename,
  validateKeySegment,
} from '../../../domain/documents/storage-key';

function reasonOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    if (err instanceof DocumentInputError) return err.reason;
    throw err;
  }
  return 'accepted';
}

// Raw traversal material and every percent-encoded spelling of it we know of.
const RAW_ATTEMPTS = [
  '..',
  '.',
  '../etc',
  'a/../b',
  '..\\windows',
  'a/b',
  '/abs',
  'a\\b',
  'a\0b',
  'a\nb',
  'a\rb',
  'a\tb',
  'a\x7fb',
  'a\x85b',
  'a\u2028b',
  'evil\u202Efdp.exe',
  '....//',
  'x..y',
  // mixed: the raw dots alone already refuse these
  '..%2fetc',
  '..%2Fetc',
];
const ENCODED_ATTEMPTS = [
  '%2e%2e',
  '%2E%2E',
  '%2e',
  '.%2e',
  '%2e.',
  '%2e%2e%2fetc',
  '%2f',
  'a%2Fb',
  '%5c',
  'a%5Cb',
  '%00',
  'a%00.pdf',
  '%0d%0a',
  '%0a',
  '%7f',
  '%252e%252e',
  '%252f',
  '%25252e%25252e',
  '%255c',
  '%2500',
  '%u002e%u002e',
  '%uff0f',
  '%e2%80%ae',
];
const OVERLONG_ATTEMPTS = ['%c0%ae%c0%ae', '%c0%af', '%c1%9c', '%e0%80%ae'];
const LOOKALIKE_ATTEMPTS = ['a\uff0fb', 'a\uff3cb', '\u2025', '\uff0e\uff0e', '\uff0e'];

describe('validateKeySegment refuses traversal in processRef (and every key segment)', () => {
  it.each(RAW_ATTEMPTS)('raw %j', (value) => {
    expect(() => validateKeySegment('processRef', value)).toThrow(DocumentInputError);
  });
  it.each(ENCODED_ATTEMPTS)('percent-encoded %j', (value) => {
    expect(reasonOf(() => validateKeySegment('processRef', value))).toBe('encoded-forbidden');
  });
  it.each(OVERLONG_ATTEMPTS)('overlong UTF-8 %j', (value) => {
    expect(reasonOf(() => validateKeySegment('processRef', value))).toBe('malformed-encoding');
  });
  it.each(LOOKALIKE_ATTEMPTS)('Unicode look-alike %j', (value) => {
    expect(() => validateKeySegment('processRef', value)).toThrow(DocumentInputError);
  });

  it('names the field and the reason', () => {
    try {
      validateKeySegment('processRef', '..');
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(DocumentInputError);
      expect(err).toMatchObject({ field: 'processRef', reason: 'dot-segment' });
    }
    expect(reasonOf(() => validateKeySegment('processRef', 'a/b'))).toBe('separator');
    expect(reasonOf(() => validateKeySegment('processRef', 'a\0b'))).toBe('control-character');
  });

  it('refuses empty, non-string and over-long values', () => {
    expect(reasonOf(() => validateKeySegment('processRef', ''))).toBe('empty');
    expect(reasonOf(() => validateKeySegment('processRef', 42))).toBe('not-a-string');
    expect(reasonOf(() => validateKeySegment('processRef', undefined))).toBe('not-a-string');
    expect(reasonOf(() => validateKeySegment('processRef', 'a'.repeat(MAX_SEGMENT_BYTES + 1)))).toBe('too-long');
    // Bytes, not UTF-16 units: 67 three-byte characters are 201 bytes.
    expect(reasonOf(() => validateKeySegment('processRef', '€'.repeat(67)))).toBe('too-long');
  });

  it('refuses values encoded more times than any honest client does', () => {
    let v = '%2e';
    for (let i = 0; i < 8; i++) v = v.replace(/%/g, '%25');
    expect(reasonOf(() => validateKeySegment('processRef', v))).toBe('malformed-encoding');
  });

  it.each([
    'case-2024-0001',
    'c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f',
    'aB3_xY9~kLm',
    'order.2024',
    'a%20b',
    '100%',
    '%zz',
    'a'.repeat(MAX_SEGMENT_BYTES),
  ])('accepts %j unchanged', (value) => {
    expect(validateKeySegment('processRef', value)).toBe(value);
  });
});

describe('validateFilename refuses traversal instead of slugging it away', () => {
  it.each([...RAW_ATTEMPTS, ...ENCODED_ATTEMPTS, ...OVERLONG_ATTEMPTS, ...LOOKALIKE_ATTEMPTS])('%j', (value) => {
    expect(() => validateFilename(value)).toThrow(DocumentInputError);
  });
  it.each([
    '../../etc/passwd',
    '..\\..\\boot.ini',
    'C:\\Windows\\system.ini',
    'report%2f..%2f..%2fsecret.pdf',
    'report.pdf\r\nX-Injected: 1',
    'invoice\u202Efdp.exe',
  ])('realistic attack %j', (value) => {
    expect(() => validateFilename(value)).toThrow(DocumentInputError);
  });
  it('reports the field as filename', () => {
    expect(() => validateFilename('a/b')).toThrow(expect.objectContaining({ field: 'filename', reason: 'separator' }));
  });
  it('caps the length in UTF-8 bytes', () => {
    expect(reasonOf(() => validateFilename(`${'a'.repeat(MAX_FILENAME_BYTES - 3)}.pdf`))).toBe('too-long');
    expect(validateFilename(`${'a'.repeat(MAX_FILENAME_BYTES - 4)}.pdf`)).toHaveLength(MAX_FILENAME_BYTES);
  });
  it.each(['report.pdf', 'Ünïcödé résumé.docx', '50% off.pdf', 'Draft… v2.pdf', '.bashrc', 'scan (1).PNG', '契約書.pdf', '😀.png'])(
    'accepts %j unchanged',
    (value) => {
      expect(validateFilename(value)).toBe(value);
    },
  );
});

describe('slugFilename', () => {
  it.each([
    ['Report.PDF', 'report.pdf'],
    ['Quarterly Report (Final) v2.pdf', 'quarterly-report-final-v2.pdf'],
    ['Ünïcödé résumé.docx', 'unicode-resume.docx'],
    ['契約書.pdf', 'file.pdf'],
    ['😀.png', 'file.png'],
    ['noextension', 'noextension'],
    ['.bashrc', 'bashrc'],
    ['archive.tar.gz', 'archive-tar.gz'],
    ['  spaced  out  .txt', 'spaced-out.txt'],
    ['---', 'file'],
    ['a.verylongextension', 'a-verylongextension'],
    ['name.p d f', 'name.pdf'],
    ['trailing.', 'trailing'],
    ['', 'file'],
  ])('%j -> %j', (input, slug) => {
    expect(slugFilename(input)).toBe(slug);
  });

  it('bounds the length and keeps the extension', () => {
    const slug = slugFilename(`${'x'.repeat(500)}.pdf`);
    expect(slug.length).toBeLessThanOrEqual(91);
    expect(slug.endsWith('.pdf')).toBe(true);
  });

  it('only ever yields lower-case ASCII letters, digits, dashes and one dot', () => {
    for (const name of ['A b/c\\d..e\0f.PDF', '%2e%2e%2f', '\u202Eexe.pdf', 'x'.repeat(300)]) {
      expect(slugFilename(name)).toMatch(/^[a-z0-9][a-z0-9-]*(\.[a-z0-9]+)?$/);
    }
  });
});

describe('buildObjectKey', () => {
  const base = {
    tenantId: 'tenant-a',
    processRef: 'case-42',
    docId: 'c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f',
    filename: 'My Scan.PDF',
  };

  it('is {tenantId}/{processRef}/{docId}-{slug}', () => {
    expect(buildObjectKey(base)).toBe('tenant-a/case-42/c7d1f1a6-1c3b-4f59-9c55-3f0b1c2d4e5f-my-scan.pdf');
  });

  it.each([
    ['processRef', '../tenant-b'],
    ['processRef', '%2e%2e'],
    ['processRef', 'a%2fb'],
    ['filename', '../../x.pdf'],
    ['filename', 'x%00.pdf'],
    ['tenantId', 'a/b'],
    ['docId', '..'],
  ] as const)('refuses %s %j', (field, value) => {
    expect(() => buildObjectKey({ ...base, [field]: value })).toThrow(expect.objectContaining({ field }));
  });

  it('stays under the S3 key limit of 1024 bytes at the maximum lengths', () => {
    const key = buildObjectKey({
      tenantId: 't'.repeat(MAX_SEGMENT_BYTES),
      processRef: 'p'.repeat(MAX_SEGMENT_BYTES),
      docId: 'd'.repeat(MAX_SEGMENT_BYTES),
      filename: `${'f'.repeat(MAX_FILENAME_BYTES - 4)}.pdf`,
    });
    expect(Buffer.byteLength(key)).toBeLessThan(1024);
  });
});
