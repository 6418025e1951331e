import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { codeMatches, hashAccessToken, hashCode, newAccessToken, newCode, newSalt, sameHash } from '../../../domain/forms/otp';
import { preparerChanges, prefillIssues, roleIssues } from '../../../domain/forms/outbound-roles';
import { repairFormSchema } from '../../../domain/forms/schema-repair';

describe('recipient one-time codes', () => {
  it('codes are 6 digits, salts and access tokens random and URL-safe', () => {
    const codes = new Set(Array.from({ length: 200 }, newCode));
    for (const c of codes) expect(c).toMatch(/^\d{6}$/);
    expect(codes.size).toBeGreaterThan(190);
    expect(newSalt()).not.toBe(newSalt());
    expect(newAccessToken()).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('a code matches only its own salted hash', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^\d{6}$/), fc.stringMatching(/^\d{6}$/), (code, other) => {
        const salt = newSalt();
        const stored = hashCode(code, salt);
        expect(stored).not.toContain(code);
        expect(codeMatches(code, salt, stored)).toBe(true);
        expect(codeMatches(other, salt, stored)).toBe(code === other);
        expect(codeMatches(code, newSalt(), stored)).toBe(false);
      }),
    );
  });

  it('sameHash refuses different lengths without throwing', () => {
    const h = hashAccessToken('t');
    expect(sameHash(h, h)).toBe(true);
    expect(sameHash(h.slice(1), h)).toBe(false);
    expect(sameHash('', h)).toBe(false);
  });
});

describe('outbound roles', () => {
  const schema = repairFormSchema({
    title: 'T',
    fields: [
      { key: 'account', type: 'text', label: 'A' },
      { key: 'amount', type: 'number', label: 'N' },
      { key: 'answer', type: 'text', label: 'Q' },
      { key: 'info', type: 'content', label: 'C' },
    ],
  });
  const roles = { account: 'PREPARER', answer: 'RECIPIENT' } as const;

  it('roles name value-holding fields only', () => {
    expect(roleIssues(schema, { account: 'PREPARER' })).toEqual([]);
    expect(roleIssues(schema, { info: 'EITHER', x: 'EITHER' }).map((i) => i.path)).toEqual(['roles.info', 'roles.x']);
  });

  it('prefill: unknown keys and wrong values are invalid, RECIPIENT fields locked, absent values pass', () => {
    expect(prefillIssues(schema, roles, { account: 'A', amount: 3 })).toEqual({ invalid: [], locked: [] });
    expect(prefillIssues(schema, roles, { amount: null, account: '' })).toEqual({ invalid: [], locked: [] });
    const r = prefillIssues(schema, roles, { x: 1, amount: '3', answer: 'no', info: 'c' });
    expect(r.invalid.map((i) => i.path)).toEqual(['prefill.x', 'prefill.amount', 'prefill.info']);
    expect(r.locked.map((i) => i.path)).toEqual(['prefill.answer']);
  });

  it('a PREPARER value may be repeated, never changed; fields without a role are EITHER', () => {
    expect(preparerChanges(roles, { account: 'A' }, { account: 'A', amount: 1, answer: 'x' })).toEqual([]);
    expect(preparerChanges(roles, { account: 'A' }, { account: 'B' }).map((i) => i.path)).toEqual(['data.account']);
    expect(preparerChanges(roles, {}, { account: 'B' }).map((i) => i.path)).toEqual(['data.account']);
    expect(preparerChanges({}, { account: 'A' }, { account: 'B' })).toEqual([]);
  });
});
