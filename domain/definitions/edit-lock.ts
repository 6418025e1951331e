// The advisory edit lock: checkout records who edits and since when. Saving needs no checkout,
// but a fresh lock of another user refuses every step that changes the draft. A lock older
// than the capability's TTL is stale: anyone may take it over or release it.
import { AppError } from '../errors';

export interface LockFacts {
  lockedBy: string | null;
  lockedAt: Date | null;
}

export interface Editor {
  userId: string;
  now: Date;
  lockTtlMinutes: number;
}

/** none: unlocked; caller: the caller's own lock; stale / held: another user's, old or fresh. */
export type LockHolder = 'none' | 'caller' | 'stale' | 'held';

export function isStale(lockedAt: Date, now: Date, ttlMinutes: number): boolean {
  return now.getTime() - lockedAt.getTime() > ttlMinutes * 60_000;
}

export function lockHolder(lock: LockFacts, editor: Editor): LockHolder {
  if (!lock.lockedBy || !lock.lockedAt) return 'none';
  if (lock.lockedBy === editor.userId) return 'caller';
  return isStale(lock.lockedAt, editor.now, editor.lockTtlMinutes) ? 'stale' : 'held';
}

export function lockedError(lock: LockFacts): AppError {
  return new AppError('definition-locked', `The definition is checked out by ${lock.lockedBy} since ${lock.lockedAt?.toISOString()}`, {
    lockedBy: lock.lockedBy,
    lockedAt: lock.lockedAt?.toISOString() ?? null,
  });
}

/** Steps that change the draft (save, check-in, restore, discard, delete) refuse a fresh foreign lock. */
export function assertMayEdit(lock: LockFacts, editor: Editor): LockHolder {
  const holder = lockHolder(lock, editor);
  if (holder === 'held') throw lockedError(lock);
  return holder;
}
