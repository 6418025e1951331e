import type { Logger } from 'pino';
import type postgres from 'postgres';
import { AccessCache } from '../api/access-cache';
import { ACCESS_ACK_CHANNEL, ACCESS_CHANNEL } from '../db/queries/access-changed';
import { AccessNode, type AccessNodeTiming } from './access-node';
import type { Settings } from '../domain/settings';
import { loadSettings } from './config';

/** The settings' timing, or their defaults for callers that pass none (tests, benches). */
export function accessNodeTimingOf(settings: Pick<Settings, 'access.node-heartbeat-ms' | 'access.invalidation-wait-ms'>): AccessNodeTiming {
  return { heartbeatMs: settings['access.node-heartbeat-ms'], invalidationWaitMs: settings['access.invalidation-wait-ms'] };
}

/**
 * Builds this node's access cache and keeps it honest: each `access_changed` notice drops its
 * tenant (and a change notice is acknowledged); each (re)subscription clears everything, since
 * notices sent while the LISTEN connection was down are lost; and the node registers and
 * heartbeats (workers/access-node.ts), so that writers wait for it and it stops serving from
 * its cache when it cannot hear.
 */
export async function createListeningAccessCache(
  sql: postgres.Sql,
  ttlMs: number,
  logger: Logger,
  timing: AccessNodeTiming = accessNodeTimingOf(loadSettings({})),
) {
  const cache = new AccessCache(ttlMs);
  if (!cache.enabled) return { cache, nodeId: undefined, stop: async () => {} };
  const node = new AccessNode(sql, cache, timing, logger);
  const changes = await sql.listen(
    ACCESS_CHANNEL,
    (payload) => node.onNotice(payload),
    () => {
      cache.clear();
      logger.debug('access cache listening');
    },
  );
  const acks = await sql.listen(ACCESS_ACK_CHANNEL, (payload) => node.onAck(payload));
  await node.start();
  return {
    cache,
    /** This node's row in access_nodes. */
    nodeId: node.nodeId,
    async stop() {
      await node.stop();
      await changes.unlisten();
      await acks.unlisten();
    },
  };
}
