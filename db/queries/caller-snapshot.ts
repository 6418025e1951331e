import { ownerGroupId } from '../../domain/access/groups';
import type { Level } from '../../domain/access/levels';
import type { Db } from '../client';

type SubscriptionStatus = 'ACTIVE' | 'SUSPENDED';

/** Everything a request needs to decide layers 1 and 2 and ownership, for one (tenant, user). */
export interface CallerSnapshot {
  tenantExists: boolean;
  isMember: boolean;
  isOwner: boolean;
  isOperator: boolean;
  subscriptions: Record<string, SubscriptionStatus>;
  grants: Record<string, Level>;
}

/**
 * One prepared round trip. A grant past its end counts no more even before its timer revokes it
 * (docs/access.md "Expiry"). Ownership and operator status are asked of the groups ("does this
 * group contain the user?", rule 7), never derived from the user's list of groups.
 */
export async function loadCallerSnapshot(
  db: Db,
  tenantId: string,
  userId: string,
  operatorGroups: readonly string[],
): Promise<CallerSnapshot> {
  const sql = db.$client;
  const [r] = await sql<
    { t: boolean; m: boolean; o: boolean; p: boolean; s: Record<string, SubscriptionStatus>; g: Record<string, Level> }[]
  >`
    select
      exists(select 1 from tenants where id = ${tenantId}) as t,
      exists(select 1 from tenant_members where tenant_id = ${tenantId} and user_id = ${userId}) as m,
      exists(select 1 from group_members where group_id = ${ownerGroupId(tenantId)} and user_id = ${userId}) as o,
      exists(select 1 from group_members gm join groups g on g.id = gm.group_id
             where g.type = 'OPERATOR' and gm.group_id = any(${operatorGroups as string[]}) and gm.user_id = ${userId}) as p,
      coalesce((select json_object_agg(capability_code, status) from capability_subscriptions
                where tenant_id = ${tenantId}), '{}'::json) as s,
      coalesce((select json_object_agg(capability_code, level) from capability_grants
                where tenant_id = ${tenantId} and user_id = ${userId}
                  and (expires_at is null or expires_at > now())), '{}'::json) as g`;
  return {
    tenantExists: !!r?.t,
    isMember: !!r?.m,
    isOwner: !!r?.o,
    isOperator: !!r?.p,
    subscriptions: r?.s ?? {},
    grants: r?.g ?? {},
  };
}
