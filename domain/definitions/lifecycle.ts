// The definition state machine, shared by forms and signatures (spec: "Form definition" and the
// Signatures design-time table). Each decision looks at the row's facts and the caller and answers
// what changes and what the audit records, a refusal (AppError), or null when there is nothing to
// do. The service applies it in one transaction; nothing here does I/O.
import { AppError, conflict, notFound } from '../errors';
import type { AuditAction } from './audit-actions';
import { assertMayEdit, lockedError, lockHolder, type Editor, type LockFacts } from './edit-lock';
import { hasErrors, type SchemaProblem } from './schema-rules';

export const DEFINITION_STATUSES = ['DRAFT', 'PUBLISHED', 'RETIRED'] as const;
export type DefinitionStatus = (typeof DEFINITION_STATUSES)[number];

export interface DefinitionFacts extends LockFacts {
  status: DefinitionStatus;
  /** The optimistic-lock counter. */
  version: number;
  publishedVersion: number | null;
}

export interface VersionFacts {
  version: number;
  schema: unknown;
  signedOffAt: Date | null;
}

/** Row changes of a step; absent keys stay as they are. */
export interface DefinitionChanges {
  name?: string;
  status?: DefinitionStatus;
  publishedVersion?: number | null;
  lockedBy?: string | null;
  lockedAt?: Date | null;
  draftSchema?: unknown;
  lastTestedAt?: Date;
  deletedAt?: Date | null;
}

export interface Step {
  changes: DefinitionChanges;
  audit: { action: AuditAction; detail: Record<string, unknown> };
}

const unlock = { lockedBy: null, lockedAt: null } as const;
const step = (changes: DefinitionChanges, action: AuditAction, detail: Record<string, unknown> = {}): Step => ({
  changes,
  audit: { action, detail },
});

/** Unretire: back to PUBLISHED when a version is published, else DRAFT (the spec leaves it open). */
export function unretireTarget(publishedVersion: number | null): DefinitionStatus {
  return publishedVersion === null ? 'DRAFT' : 'PUBLISHED';
}

/** Takes the lock when free, renews the caller's own, takes over a stale one; a fresh foreign lock is 409. */
export function decideCheckout(d: DefinitionFacts, editor: Editor): Step {
  const holder = lockHolder(d, editor);
  if (holder === 'held') throw lockedError(d);
  const detail =
    holder === 'stale' ? { takenOverFrom: d.lockedBy, lockedSince: d.lockedAt?.toISOString() } : holder === 'caller' ? { renewed: true } : {};
  return step({ lockedBy: editor.userId, lockedAt: editor.now }, 'checked_out', detail);
}

/** Releases the caller's lock or a stale one; nothing to do when unlocked; a fresh foreign lock is 409. */
export function decideRelease(d: DefinitionFacts, editor: Editor): Step | null {
  const holder = lockHolder(d, editor);
  if (holder === 'none') return null;
  if (holder === 'held') throw lockedError(d);
  return step(unlock, 'released', holder === 'stale' ? { releasedFrom: d.lockedBy } : {});
}

/** A save names the counter it read: another write since then is 409. Saving renews the caller's lock. */
export function decideSave(d: DefinitionFacts, editor: Editor, expectedVersion: number, draft: unknown): Step {
  const holder = assertMayEdit(d, editor);
  if (d.version !== expectedVersion) {
    throw conflict('version-conflict', `The definition is at version ${d.version}, not ${expectedVersion}; reload it and retry`);
  }
  return step({ draftSchema: draft, ...(holder === 'caller' ? { lockedAt: editor.now } : {}) }, 'saved');
}

/** The draft becomes version `next` (max+1) unless it has error-level problems; the lock is released. */
export function decideCheckIn(d: DefinitionFacts, editor: Editor, problems: SchemaProblem[], next: number): Step {
  assertMayEdit(d, editor);
  if (hasErrors(problems)) {
    throw new AppError('draft-invalid', 'The draft has errors; fix them before checking it in', { problems });
  }
  return step(unlock, 'checked_in', { version: next });
}

function requireValid(v: VersionFacts, problems: SchemaProblem[]) {
  if (hasErrors(problems)) {
    throw new AppError('version-invalid', `Version ${v.version} has errors under the current schema rules`, { problems });
  }
}

/** Signs off the latest version (once); lastTestedAt mirrors it. `problems` are the latest version's. */
export function decideSignOff(latest: VersionFacts | null, editor: Editor, problems: SchemaProblem[]): Step | null {
  if (!latest) throw conflict('no-version-checked-in', 'Nothing is checked in yet to sign off');
  if (latest.signedOffAt) return null;
  requireValid(latest, problems);
  return step({ lastTestedAt: editor.now }, 'tested', { version: latest.version });
}

/**
 * Publishes a signed-off version from DRAFT, or switches publishedVersion while PUBLISHED
 * (consumers resolve the new one at once). A RETIRED definition is unretired first.
 */
export function decidePublish(d: DefinitionFacts, v: VersionFacts | null, wanted: number, problems: SchemaProblem[]): Step | null {
  if (d.status === 'RETIRED') throw conflict('definition-retired', 'The definition is RETIRED; unretire it before publishing');
  if (!v) throw notFound(`Version ${wanted}`, 'version-not-found');
  if (!v.signedOffAt) throw conflict('version-not-signed-off', `Version ${v.version} is not signed off`);
  if (d.status === 'PUBLISHED' && d.publishedVersion === v.version) return null;
  requireValid(v, problems);
  return step({ status: 'PUBLISHED', publishedVersion: v.version }, 'published', { version: v.version, previous: d.publishedVersion });
}

/** Any status becomes RETIRED (publishedVersion is kept for unretire); retiring twice changes nothing. */
export function decideRetire(d: DefinitionFacts): Step | null {
  if (d.status === 'RETIRED') return null;
  return step({ status: 'RETIRED' }, 'archived', { from: d.status });
}

export function decideUnretire(d: DefinitionFacts): Step {
  if (d.status !== 'RETIRED') throw conflict('definition-not-retired', `The definition is ${d.status}, not RETIRED`);
  const to = unretireTarget(d.publishedVersion);
  return step({ status: to }, 'unretired', { to });
}

/** The chosen version's schema becomes the draft. */
export function decideRestore(d: DefinitionFacts, editor: Editor, v: VersionFacts | null, wanted: number): Step {
  assertMayEdit(d, editor);
  if (!v) throw notFound(`Version ${wanted}`, 'version-not-found');
  return step({ draftSchema: v.schema }, 'restored', { version: v.version });
}

/** The draft returns to the last checked-in version, ending the edit: the lock is released too. */
export function decideDiscard(d: DefinitionFacts, editor: Editor, latest: VersionFacts | null): Step {
  assertMayEdit(d, editor);
  if (!latest) throw conflict('no-version-checked-in', 'Nothing is checked in yet to return the draft to');
  return step({ draftSchema: latest.schema, ...unlock }, 'discarded', { version: latest.version });
}

/** Renaming is not a draft change: the edit lock does not stop it. The same name again changes nothing. */
export function decideRename(d: DefinitionFacts & { name: string }, name: string): Step | null {
  if (d.name === name) return null;
  return step({ name }, 'renamed', { from: d.name, to: name });
}

/** Undoes a soft delete (the code is still the definition's); a live definition has nothing to undo. */
export function decideUndelete(d: DefinitionFacts & { deletedAt: Date | null }): Step | null {
  if (!d.deletedAt) return null;
  return step({ deletedAt: null }, 'undeleted', { deletedAt: d.deletedAt.toISOString() });
}

/**
 * A hard purge removes the definition and its versions for good (live or soft-deleted); its audit
 * trail stays and records it. Refused while another user holds a fresh lock on a live definition.
 */
export function decidePurge(d: DefinitionFacts & { deletedAt: Date | null }, editor: Editor): { action: 'purged'; detail: Record<string, unknown> } {
  if (!d.deletedAt) assertMayEdit(d, editor);
  return { action: 'purged', detail: { status: d.status, wasDeleted: d.deletedAt !== null } };
}

/** Soft delete; refused while another user holds a fresh lock (it would drop their edit). */
export function decideDelete(d: DefinitionFacts, editor: Editor): Step {
  assertMayEdit(d, editor);
  return step({ deletedAt: editor.now, ...unlock }, 'deleted', { status: d.status });
}

/** A clone starts from the version asked for, else the latest one; without any version there is nothing to clone. */
export function cloneSource(wanted: number | undefined, found: VersionFacts | null): VersionFacts {
  if (found) return found;
  if (wanted !== undefined) throw notFound(`Version ${wanted}`, 'version-not-found');
  throw conflict('no-version-checked-in', 'Nothing is checked in yet to clone');
}

export const NAME_MAX = 200;

export function cloneName(sourceName: string, given: string | undefined): string {
  if (given !== undefined) return given;
  const suffix = ' (copy)';
  return `${sourceName.slice(0, NAME_MAX - suffix.length)}${suffix}`;
}
