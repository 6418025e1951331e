import type { Db } from '../../db/client';
import { listUserTenants, userDirectoryName, type UserTenantRow } from '../../db/queries/user-tenants';

export type { UserTenantRow };

/**
 * What a signed-in person's tenant switcher lists: the tenants they belong to, or every tenant for
 * a platform operator (at most `limit`), with the name the user directory holds for them.
 */
export async function listViewerTenants(db: Db, input: { userId: string; isOperator: boolean; limit: number }) {
  const [tenants, displayName] = await Promise.all([
    listUserTenants(db, { userId: input.userId, everyTenant: input.isOperator, limit: input.limit }),
    userDirectoryName(db, { userId: input.userId }),
  ]);
  return { tenants, displayName };
}
