import { describe, expect, it } from 'vitest';
import { contentRangeHeader, parseRange, s3RangeHeader } from '../../../domain/documents/range';

const SIZE = 1000;

describe('parseRange: one range gives 206 with the clamped span', () => {
  it.each([
    ['bytes=0-0', 0, 0],
    ['bytes=0-499', 0, 499],
    ['bytes=500-999', 500, 999],
    ['bytes=500-', 500, 999],
    ['bytes=999-', 999, 999],
    ['bytes=0-', 0, 999],
    // RFC 9110 §14.1.2: a last-pos past the end is clamped to size-1.
    ['bytes=900-5000', 900, 999],
    ['bytes=0-99999999999999999999', 0, 999],
    ['bytes=-1', 999, 999],
    ['bytes=-500', 500, 999],
    ['bytes=-1000', 0, 999],
    // A suffix longer than the representation selects all of it.
    ['bytes=-5000', 0, 999],
    // Unit is case-insensitive; whitespace around list elements and empty elements are allowed.
    ['Bytes=1-2', 1, 2],
    ['bytes= 1-2 ', 1, 2],
    ['bytes=,1-2,', 1, 2],
  ])('%s', (header, start, end) => {
    expect(parseRange(header, SIZE)).toEqual({ kind: 'single', start, end });
  });
});

describe('parseRange: unsatisfiable gives 416', () => {
  it.each(['bytes=1000-', 'bytes=1000-2000', 'bytes=5000-', 'bytes=-0', 'bytes=99999999999999999999-'])('%s', (header) => {
    expect(parseRange(header, SIZE)).toEqual({ kind: 'unsatisfiable' });
  });
  it('every range of an empty file except a suffix is unsatisfiable', () => {
    expect(parseRange('bytes=0-', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=0-0', 0)).toEqual({ kind: 'unsatisfiable' });
    expect(parseRange('bytes=-0', 0)).toEqual({ kind: 'unsatisfiable' });
  });
  it('several ranges that are all unsatisfiable', () => {
    expect(parseRange('bytes=1000-1001, 2000-', SIZE)).toEqual({ kind: 'unsatisfiable' });
  });
});

describe('parseRange: malformed or foreign headers are ignored (200 whole body)', () => {
  it.each([
    undefined,
    null,
    '',
    'bytes',
    'bytes=',
    'bytes=,',
    'bytes=abc',
    'bytes=1-a',
    'bytes=a-1',
    'bytes=--1',
    'bytes=-',
    'bytes=1--2',
    'bytes=+1-2',
    'bytes=1.5-2',
    'bytes=0x10-',
    'bytes=5-1',
    'bytes=1-2,abc',
    'items=0-1',
    'bytes 0-1',
    '0-1',
  ])('%j', (header) => {
    expect(parseRange(header, SIZE)).toEqual({ kind: 'none' });
  });
  it('a suffix range of an empty file has nothing to slice', () => {
    expect(parseRange('bytes=-5', 0)).toEqual({ kind: 'none' });
  });
});

describe('parseRange: several ranges give 200 with the whole body', () => {
  it.each(['bytes=0-1,5-6', 'bytes=0-1, -5', 'bytes=0-1,0-1', 'bytes=0-1,5000-'])('%s', (header) => {
    expect(parseRange(header, SIZE)).toEqual({ kind: 'multiple' });
  });
});

describe('contentRangeHeader', () => {
  it('describes a served range', () => {
    expect(contentRangeHeader({ start: 0, end: 499 }, SIZE)).toBe('bytes 0-499/1000');
  });
  it('describes an unsatisfiable request', () => {
    expect(contentRangeHeader(null, SIZE)).toBe('bytes */1000');
  });
  it('round-trips a parsed range', () => {
    const r = parseRange('bytes=-10', SIZE);
    if (r.kind !== 'single') throw new Error('expected single');
    expect(contentRangeHeader(r, SIZE)).toBe('bytes 990-999/1000');
    expect(s3RangeHeader(r)).toBe('bytes=990-999');
  });
});
