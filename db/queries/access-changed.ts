import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';

export const ACCESS_CHANNEL = 'access_changed';
/** Where each API node acknowledges a change notice it has applied: `<node id> <change id>`. */
export const ACCESS_ACK_CHANNEL = 'access_acked';

/**
 * Tells every API node that cached snapshots of this tenant are stale. Inside a transaction
 * the notice is sent on commit, and not at all on rollback. `*` means every tenant.
 */
export async function notifyAccessChanged(db: DbOrTx, tenantId: string) {
  await db.execute(sql`select pg_notify(${ACCESS_CHANNEL}, ${tenantId})`);
}

/**
 * What a notice on `access_changed` says. A bare tenant id (or `*`) drops that tenant, as the
 * writes' own notices do; `change <id> <tenant>` drops it and asks for an acknowledgement;
 * `ping <node> <seq>` is a node's heartbeat coming back to it. Tenant ids never hold a space.
 */
export type AccessNotice =
  | { kind: 'tenant'; tenantId: string }
  | { kind: 'change'; changeId: string; tenantId: string }
  | { kind: 'ping'; nodeId: string; seq: number };

export function parseAccessNotice(payload: string): AccessNotice {
  const [head, a, b] = payload.split(' ');
  if (head === 'change' && a && b !== undefined) return { kind: 'change', changeId: a, tenantId: b };
  if (head === 'ping' && a && b !== undefined) return { kind: 'ping', nodeId: a, seq: Number(b) };
  return { kind: 'tenant', tenantId: payload };
}

/**
 * Sends `change <id> <tenant>` after the write has committed (so every node receives it after
 * the write's own notice: notices arrive in commit order) and answers the nodes whose heartbeat
 * is younger than `liveWithinMs`: those the writer waits for. One round trip.
 */
export async function publishAccessChange(db: DbOrTx, p: { changeId: string; tenantId: string; liveWithinMs: number }): Promise<string[]> {
  const [row] = await db.execute<{ nodes: string[] }>(sql`
    select pg_notify(${ACCESS_CHANNEL}, ${`change ${p.changeId} ${p.tenantId}`}) as sent,
           array(select node_id from access_nodes
                  where heartbeat_at > now() - make_interval(secs => ${p.liveWithinMs / 1000}::double precision)) as nodes`);
  return row?.nodes ?? [];
}

/** A node's acknowledgement that it has dropped what a change notice named. */
export async function acknowledgeAccessChange(db: DbOrTx, p: { nodeId: string; changeId: string }) {
  await db.execute(sql`select pg_notify(${ACCESS_ACK_CHANNEL}, ${`${p.nodeId} ${p.changeId}`})`);
}
