import { describe, expect, it } from 'vitest';
import {
  cloneName,
  cloneSource,
  decideCheckIn,
  decideCheckout,
  decideDelete,
  decideDiscard,
  decidePublish,
  decideRelease,
  decideRestore,
  decideRetire,
  decideSave,
  decideSignOff,
  decideUnretire,
  unretireTarget,
  type DefinitionFacts,
} from '../../../domain/definitions/lifecycle';
import { AppError } from '../../../domain/errors';

const now = new Date('2026-03-05T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const me = { userId: 'me', now, lockTtlMinutes: 30 };
const facts = (over: Partial<DefinitionFacts> = {}): DefinitionFacts => ({
  status: 'DRAFT',
  version: 3,
  publishedVersion: null,
  lockedBy: null,
  lockedAt: null,
  ...over,
});
const heldByOther = { lockedBy: 'other', lockedAt: minutesAgo(5) };
const staleOfOther = { lockedBy: 'other', lockedAt: minutesAgo(31) };
const valid: never[] = [];
const broken = [{ path: 'title', level: 'error' as const, message: 'x' }];
const v = (version: number, signed = false) => ({ version, schema: { title: `v${version}` }, signedOffAt: signed ? minutesAgo(1) : null });

function codeOf(run: () => unknown): string {
  try {
    run();
  } catch (err) {
    if (err instanceof AppError) return err.code;
    throw err;
  }
  return 'no error';
}

describe('checkout', () => {
  it('takes a free lock, renews an own lock, takes over a stale one and refuses a fresh foreign one', () => {
    expect(decideCheckout(facts(), me)).toEqual({ changes: { lockedBy: 'me', lockedAt: now }, audit: { action: 'checked_out', detail: {} } });
    expect(decideCheckout(facts({ lockedBy: 'me', lockedAt: minutesAgo(50) }), me).audit.detail).toEqual({ renewed: true });
    expect(decideCheckout(facts(staleOfOther), me).audit.detail).toMatchObject({ takenOverFrom: 'other' });
    expect(codeOf(() => decideCheckout(facts(heldByOther), me))).toBe('definition-locked');
  });

  it('a lock exactly TTL old is still fresh; a minute older is stale', () => {
    expect(codeOf(() => decideCheckout(facts({ lockedBy: 'other', lockedAt: minutesAgo(30) }), me))).toBe('definition-locked');
    expect(decideCheckout(facts({ lockedBy: 'other', lockedAt: minutesAgo(30.01) }), me).changes.lockedBy).toBe('me');
  });
});

describe('release', () => {
  it('nothing to do when unlocked; releases own and stale locks; refuses a fresh foreign one', () => {
    expect(decideRelease(facts(), me)).toBeNull();
    expect(decideRelease(facts({ lockedBy: 'me', lockedAt: now }), me)?.changes).toEqual({ lockedBy: null, lockedAt: null });
    expect(decideRelease(facts(staleOfOther), me)?.audit.detail).toEqual({ releasedFrom: 'other' });
    expect(codeOf(() => decideRelease(facts(heldByOther), me))).toBe('definition-locked');
  });
});

describe('saveDraft', () => {
  it('needs the current counter and no fresh foreign lock; renews the own lock', () => {
    expect(decideSave(facts(), me, 3, { a: 1 })).toEqual({ changes: { draftSchema: { a: 1 } }, audit: { action: 'saved', detail: {} } });
    expect(codeOf(() => decideSave(facts(), me, 2, {}))).toBe('version-conflict');
    expect(codeOf(() => decideSave(facts(heldByOther), me, 3, {}))).toBe('definition-locked');
    expect(decideSave(facts({ lockedBy: 'me', lockedAt: minutesAgo(10) }), me, 3, {}).changes.lockedAt).toEqual(now);
    expect(decideSave(facts(staleOfOther), me, 3, {}).changes).toEqual({ draftSchema: {} });
  });
});

describe('check-in', () => {
  it('releases the lock and records the version; errors block it, warnings do not', () => {
    expect(decideCheckIn(facts({ lockedBy: 'me', lockedAt: now }), me, valid, 4)).toEqual({
      changes: { lockedBy: null, lockedAt: null },
      audit: { action: 'checked_in', detail: { version: 4 } },
    });
    expect(codeOf(() => decideCheckIn(facts(), me, broken, 1))).toBe('draft-invalid');
    expect(decideCheckIn(facts(), me, [{ path: '', level: 'warning', message: 'w' }], 1).audit.action).toBe('checked_in');
    expect(codeOf(() => decideCheckIn(facts(heldByOther), me, valid, 1))).toBe('definition-locked');
  });
});

describe('sign-off', () => {
  it('signs the latest version once, mirroring lastTestedAt; nothing checked in is 409; errors block it', () => {
    expect(decideSignOff(v(2), me, valid)).toEqual({ changes: { lastTestedAt: now }, audit: { action: 'tested', detail: { version: 2 } } });
    expect(decideSignOff(v(2, true), me, valid)).toBeNull();
    expect(codeOf(() => decideSignOff(null, me, valid))).toBe('no-version-checked-in');
    expect(codeOf(() => decideSignOff(v(2), me, broken))).toBe('version-invalid');
  });

  it('is not stopped by another user’s lock (a reviewer signs off)', () => {
    expect(decideSignOff(v(1), { ...me, userId: 'reviewer' }, valid)).not.toBeNull();
  });
});

describe('publish', () => {
  it('DRAFT → PUBLISHED with a signed-off version; 409 unless signed off; 404 for an unknown version', () => {
    expect(decidePublish(facts(), v(1, true), 1, valid)).toEqual({
      changes: { status: 'PUBLISHED', publishedVersion: 1 },
      audit: { action: 'published', detail: { version: 1, previous: null } },
    });
    expect(codeOf(() => decidePublish(facts(), v(1), 1, valid))).toBe('version-not-signed-off');
    expect(codeOf(() => decidePublish(facts(), null, 9, valid))).toBe('version-not-found');
    expect(codeOf(() => decidePublish(facts(), v(1, true), 1, broken))).toBe('version-invalid');
  });

  it('PUBLISHED switches publishedVersion; the same version again changes nothing; RETIRED is refused', () => {
    const published = facts({ status: 'PUBLISHED', publishedVersion: 1 });
    expect(decidePublish(published, v(2, true), 2, valid)?.changes).toEqual({ status: 'PUBLISHED', publishedVersion: 2 });
    expect(decidePublish(published, v(1, true), 1, valid)).toBeNull();
    expect(codeOf(() => decidePublish(facts({ status: 'RETIRED' }), v(1, true), 1, valid))).toBe('definition-retired');
  });
});

describe('retire and unretire', () => {
  it('retire: any status → RETIRED (archived), twice changes nothing', () => {
    expect(decideRetire(facts({ status: 'PUBLISHED', publishedVersion: 2 }))).toEqual({
      changes: { status: 'RETIRED' },
      audit: { action: 'archived', detail: { from: 'PUBLISHED' } },
    });
    expect(decideRetire(facts({ status: 'RETIRED' }))).toBeNull();
  });

  it('unretire: PUBLISHED when a version is published, else DRAFT; only from RETIRED', () => {
    expect(unretireTarget(2)).toBe('PUBLISHED');
    expect(unretireTarget(null)).toBe('DRAFT');
    expect(decideUnretire(facts({ status: 'RETIRED', publishedVersion: 2 })).changes).toEqual({ status: 'PUBLISHED' });
    expect(decideUnretire(facts({ status: 'RETIRED' })).changes).toEqual({ status: 'DRAFT' });
    expect(codeOf(() => decideUnretire(facts()))).toBe('definition-not-retired');
  });
});

describe('restore, discard, delete', () => {
  it("restore makes the version's schema the draft; unknown version 404; a fresh foreign lock 409", () => {
    expect(decideRestore(facts(), me, v(1), 1).changes).toEqual({ draftSchema: { title: 'v1' } });
    expect(codeOf(() => decideRestore(facts(), me, null, 5))).toBe('version-not-found');
    expect(codeOf(() => decideRestore(facts(heldByOther), me, v(1), 1))).toBe('definition-locked');
  });

  it('discard returns to the latest version and releases the lock; nothing checked in is 409', () => {
    expect(decideDiscard(facts({ lockedBy: 'me', lockedAt: now }), me, v(3)).changes).toEqual({ draftSchema: { title: 'v3' }, lockedBy: null, lockedAt: null });
    expect(codeOf(() => decideDiscard(facts(), me, null))).toBe('no-version-checked-in');
  });

  it('delete stamps deletedAt and clears the lock; a fresh foreign lock refuses it', () => {
    expect(decideDelete(facts(), me).changes).toEqual({ deletedAt: now, lockedBy: null, lockedAt: null });
    expect(codeOf(() => decideDelete(facts(heldByOther), me))).toBe('definition-locked');
  });
});

describe('clone', () => {
  it('starts from the version found; an unknown named version is 404, no version at all 409', () => {
    expect(cloneSource(undefined, v(2))).toEqual(v(2));
    expect(codeOf(() => cloneSource(4, null))).toBe('version-not-found');
    expect(codeOf(() => cloneSource(undefined, null))).toBe('no-version-checked-in');
  });

  it('names the clone after its source unless named, within the name bound', () => {
    expect(cloneName('Intake', undefined)).toBe('Intake (copy)');
    expect(cloneName('Intake', 'Other')).toBe('Other');
    expect(cloneName('x'.repeat(200), undefined)).toHaveLength(200);
  });
});
