import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../client';
import { ACCESS_CHANNEL } from './access-changed';

/**
 * One heartbeat of an API node: its row says "alive now" (inserted again if another node had
 * deleted it as stale), and `ping <node> <seq>` goes out on the access channel. The node counts
 * the heartbeat only when that ping comes back through its own LISTEN connection, which proves
 * every notice committed before it has reached the node too.
 */
export async function beatAccessNode(db: DbOrTx, p: { nodeId: string; seq: number }) {
  await db.execute(sql`
    with beat as (
      insert into access_nodes (node_id) values (${p.nodeId})
      on conflict (node_id) do update set heartbeat_at = now()
      returning 1)
    select pg_notify(${ACCESS_CHANNEL}, ${`ping ${p.nodeId} ${p.seq}`}) from beat`);
}

/** A node stopping cleanly leaves the live set at once, so no writer waits for it. */
export async function removeAccessNode(db: DbOrTx, p: { nodeId: string }) {
  await db.execute(sql`delete from access_nodes where node_id = ${p.nodeId}`);
}

/** Rows of nodes silent for longer than `olderThanMs` (crashed, never stopped cleanly). */
export async function deleteSilentAccessNodes(db: DbOrTx, p: { olderThanMs: number }) {
  await db.execute(sql`
    delete from access_nodes
     where heartbeat_at < now() - make_interval(secs => ${p.olderThanMs / 1000}::double precision)`);
}
