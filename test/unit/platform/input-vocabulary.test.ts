import { describe, expect, it } from 'vitest';
import { boundedJson, isStorable, jsonIssues, text } from '../../../api/vocabulary';

const bounds = { maxBytes: 1000, maxDepth: 4, maxNodes: 50, maxKeyLength: 10 };

describe('input vocabulary', () => {
  it('storable strings have no NUL and no lone surrogate (pairs are fine)', () => {
    expect(isStorable('plain ✓ 😀')).toBe(true);
    expect(isStorable('a\u0000')).toBe(false);
    expect(isStorable('\ud800')).toBe(false);
    expect(isStorable('x\udc00')).toBe(false);
    expect(text({ max: 5 }).safeParse(' ab ').data).toBe('ab');
    expect(text({ max: 5 }).safeParse('abcdef').success).toBe(false);
  });

  it('bounded JSON refuses depth, size, node count, long keys and unstorable strings with paths', () => {
    expect(jsonIssues({ a: [1, { b: 'c' }] }, bounds)).toEqual([]);
    expect(jsonIssues({ a: { b: { c: { d: { e: 1 } } } } }, bounds)[0]?.message).toMatch(/deeper/);
    expect(jsonIssues({ a: 'x'.repeat(2000) }, bounds)[0]?.message).toMatch(/larger than 1000 bytes/);
    expect(jsonIssues(Array.from({ length: 60 }, () => 1), bounds)[0]?.message).toMatch(/more than 50/);
    expect(jsonIssues({ ['k'.repeat(11)]: 1 }, bounds)[0]?.path).toEqual(['k'.repeat(11)]);
    expect(jsonIssues({ list: ['ok', 'bad\u0000'] }, bounds)).toEqual([{ path: ['list', 1], message: expect.stringMatching(/NUL/) }]);
  });

  it('stops early on a hostile value: past the node bound it reads nothing further', () => {
    // Reading any child would run its getter and throw: the walk must stop at the bound first.
    const trap = () => Object.defineProperty({}, 'x', { enumerable: true, get: () => { throw new Error('read past the bound'); } });
    const wide = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`k${i}`, trap()]));
    expect(jsonIssues(wide, bounds)).toEqual([{ path: [], message: 'must not hold more than 50 keys and elements' }]);
  });

  it('is required and not null', () => {
    const schema = boundedJson(bounds);
    expect(schema.safeParse(undefined).success).toBe(false);
    expect(schema.safeParse(null).success).toBe(false);
    expect(schema.safeParse(0).success).toBe(true);
  });
});
