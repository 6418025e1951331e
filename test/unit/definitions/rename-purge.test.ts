import { describe, expect, it } from 'vitest';
import { decidePurge, decideRename, decideUndelete, type DefinitionFacts } from '../../../domain/definitions/lifecycle';
import { AppError } from '../../../domain/errors';

const now = new Date('2026-03-05T12:00:00Z');
const minutesAgo = (m: number) => new Date(now.getTime() - m * 60_000);
const me = { userId: 'me', now, lockTtlMinutes: 30 };
const facts = (over: Partial<DefinitionFacts & { name: string; deletedAt: Date | null }> = {}) => ({
  status: 'DRAFT' as const,
  version: 3,
  publishedVersion: null,
  lockedBy: null,
  lockedAt: null,
  name: 'Contract',
  deletedAt: null,
  ...over,
});

describe('rename', () => {
  it('changes the name and audits from and to; the same name is nothing to do', () => {
    expect(decideRename(facts(), 'Offer')).toEqual({ changes: { name: 'Offer' }, audit: { action: 'renamed', detail: { from: 'Contract', to: 'Offer' } } });
    expect(decideRename(facts(), 'Contract')).toBeNull();
  });

  it('is not stopped by the edit lock (it guards the draft)', () => {
    expect(decideRename(facts({ lockedBy: 'other', lockedAt: minutesAgo(1) }), 'Offer')).not.toBeNull();
  });
});

describe('hard purge', () => {
  it('is refused under a fresh lock of another user on a live definition', () => {
    const locked = facts({ lockedBy: 'other', lockedAt: minutesAgo(5) });
    expect(() => decidePurge(locked, me)).toThrow(AppError);
    try {
      decidePurge(locked, me);
    } catch (err) {
      expect((err as AppError).code).toBe('definition-locked');
    }
  });

  it('goes ahead for the caller, a stale lock, and any soft-deleted definition', () => {
    expect(decidePurge(facts({ lockedBy: 'me', lockedAt: minutesAgo(1) }), me).action).toBe('purged');
    expect(decidePurge(facts({ lockedBy: 'other', lockedAt: minutesAgo(31) }), me).action).toBe('purged');
    expect(decidePurge(facts({ status: 'PUBLISHED', deletedAt: minutesAgo(60) }), me)).toEqual({
      action: 'purged',
      detail: { status: 'PUBLISHED', wasDeleted: true },
    });
  });
});

describe('undelete', () => {
  it('clears deletedAt of a deleted definition, audited; a live one has nothing to undo', () => {
    const deletedAt = minutesAgo(10);
    expect(decideUndelete(facts({ deletedAt }))).toEqual({ changes: { deletedAt: null }, audit: { action: 'undeleted', detail: { deletedAt: deletedAt.toISOString() } } });
    expect(decideUndelete(facts())).toBeNull();
  });
});
