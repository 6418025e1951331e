import { notifyAccessChanged } from '../db/queries/access-changed';
import { ensureOperatorGroups } from '../db/queries/membership';
import type { Db } from '../db/client';
import type { Settings } from '../domain/settings';

/** Start-up facts every API node agrees on: operator groups exist, bootstrap operators are in. */
export async function bootstrapAccess(db: Db, settings: Settings) {
  await ensureOperatorGroups(db, settings['access.operator-groups'], settings['access.operators']);
  await notifyAccessChanged(db, '*');
}
