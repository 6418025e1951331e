import type { Db } from '../../db/client';
import { loadCallerSnapshot, type CallerSnapshot } from '../../db/queries/caller-snapshot';
import { isOperator, upsertUserDirectory } from '../../db/queries/membership';

/** What a request needs to decide membership, ownership, operator status and grants, in one read. */
export async function loadCaller(
  db: Db,
  input: { tenantId: string; userId: string; operatorGroups: readonly string[] },
): Promise<CallerSnapshot> {
  return loadCallerSnapshot(db, input.tenantId, input.userId, input.operatorGroups);
}

/** A platform operator is a member of one of the `access.operator-groups` groups. */
export async function isPlatformOperator(db: Db, input: { userId: string; operatorGroups: readonly string[] }) {
  return isOperator(db, input.userId, input.operatorGroups);
}

/** Refreshes the user directory with the names the gateway asserted; an absent value keeps the stored one. */
export async function recordUserDirectoryEntry(
  db: Db,
  input: { userId: string; name: string | undefined; email: string | undefined },
) {
  await upsertUserDirectory(db, input.userId, input.name, input.email);
}
