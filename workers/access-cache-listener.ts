import type { Logger } from 'pino';
import type postgres from 'postgres';
import { AccessCache } from '../api/access-cache';
import { ACCESS_CHANNEL } from '../db/queries/access-changed';

/**
 * Builds this node's access cache and keeps it honest: each `access_changed` notice drops its
 * tenant; each (re)subscription clears everything, since notices sent while the LISTEN
 * connection was down are lost.
 */
export async function createListeningAccessCache(sql: postgres.Sql, ttlMs: number, logger: Logger) {
  const cache = new AccessCache(ttlMs);
  if (!cache.enabled) return { cache, stop: async () => {} };
  const sub = await sql.listen(
    ACCESS_CHANNEL,
    (tenantId) => cache.invalidate(tenantId),
    () => {
      cache.clear();
      logger.debug('access cache listening');
    },
  );
  return { cache, stop: () => sub.unlisten() };
}
