import type { Db } from '../../db/client';
import { insertAudit } from '../../db/queries/access-audit';
import {
  insertApiClient,
  listApiClients,
  revokeApiClient as markApiClientRevoked,
} from '../../db/queries/api-clients';
import { deleteMember, insertMember } from '../../db/queries/tenants';
import { hashClientSecret, newClientId, newClientSecret } from '../../domain/api-client-credentials';
import { notFound } from '../../domain/errors';
import type { Settings } from '../../domain/settings';
import { revokeAllGrants } from './grants';

/**
 * A new API client of the tenant and its secret, returned this once (only its scrypt hash is
 * stored). The client becomes a member of role `api-client` with no grants.
 */
export async function createApiClient(
  deps: { db: Db; settings: Pick<Settings, 'access.api-client-scrypt-cost'> },
  input: { tenantId: string; name: string; actor: string },
) {
  const { tenantId, name, actor } = input;
  const id = newClientId();
  const secret = newClientSecret();
  const secretHash = await hashClientSecret(secret, deps.settings['access.api-client-scrypt-cost']);
  const client = await deps.db.transaction(async (tx) => {
    const created = await insertApiClient(tx, { id, tenantId, name, secretHash, createdBy: actor });
    await insertMember(tx, tenantId, id, 'api-client', actor);
    await insertAudit(tx, { tenantId, actor, action: 'api-client.create', subjectUserId: id });
    return created;
  });
  return { client, secret };
}

/** The tenant's API clients, revoked ones included, without secrets. */
export async function listTenantApiClients(db: Db, input: { tenantId: string }) {
  return listApiClients(db, input.tenantId);
}

/** Its credentials stop working at once; its grants and membership go with it. */
export async function revokeApiClient(db: Db, input: { tenantId: string; clientId: string; actor: string }) {
  const { tenantId, clientId, actor } = input;
  await db.transaction(async (tx) => {
    if (!(await markApiClientRevoked(tx, tenantId, clientId, actor))) throw notFound('API client', 'api-client-not-found');
    await revokeAllGrants(tx, tenantId, clientId, actor, 'api client revoked');
    await deleteMember(tx, tenantId, clientId);
    await insertAudit(tx, { tenantId, actor, action: 'api-client.revoke', subjectUserId: clientId });
  });
}
