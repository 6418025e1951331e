import { drizzle } from 'drizzle-orm/postgres-js';
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type postgres from 'postgres';
import type { AccessCache } from '../api/access-cache';
import type { Db } from '../db/client';
import * as schema from '../db/schema/index';
import { acknowledgeAccessChange, parseAccessNotice, publishAccessChange } from '../db/queries/access-changed';
import { beatAccessNode, deleteSilentAccessNodes, removeAccessNode } from '../db/queries/access-nodes';
import { measureAccessCacheServing, observeInvalidationWait } from '../integrations/metrics/access-invalidation';

export interface AccessNodeTiming {
  /** access.node-heartbeat-ms */
  heartbeatMs: number;
  /** access.invalidation-wait-ms: the writer's bounded wait, and this node's silence limit. */
  invalidationWaitMs: number;
}

/** Rows of nodes silent this long are deleted (crashed nodes never delete their own). */
const FORGET_AFTER_MS = 10 * 60_000;

/**
 * This API node's part in "a revocation is everywhere before it is acknowledged"
 * (docs/access.md "Caching across nodes"):
 * - it heartbeats: a ping to itself on `access_changed`, sent in the statement that refreshes its
 *   row in access_nodes. Notices arrive in commit order, so a ping coming back proves that every
 *   notice committed before it was applied; the cache serves only while one came back within
 *   the silence limit (= the writers' wait). A node whose LISTEN connection or database is gone
 *   therefore stops serving from its cache before any writer stops waiting for it;
 * - it acknowledges each `change` notice on `access_acked` after dropping the tenant;
 * - as a writer, after the write has committed it sends its own change notice and waits for the
 *   acknowledgement of every node whose heartbeat is recent, or for the bound.
 */
export class AccessNode {
  readonly nodeId = randomUUID();
  private readonly db: Db;
  private seq = 0;
  private changes = 0;
  /** Monotonic send time of each ping not yet back. */
  private readonly pingsInFlight = new Map<number, number>();
  private readonly waits = new Map<string, { acked: Set<string>; check: () => void }>();
  private beating = false;
  private beatFailing = false;
  private timer: NodeJS.Timeout | undefined;
  private firstPing: (() => void) | undefined;

  constructor(
    sql: postgres.Sql,
    private readonly cache: AccessCache,
    private readonly timing: AccessNodeTiming,
    private readonly logger: Logger,
  ) {
    this.db = drizzle(sql, { schema });
    if (timing.heartbeatMs * 2 > timing.invalidationWaitMs) {
      throw new Error('access.node-heartbeat-ms must be at most half of access.invalidation-wait-ms');
    }
    cache.coordinate({ silenceLimitMs: timing.invalidationWaitMs, spread: (tenantId) => this.spread(tenantId) });
    measureAccessCacheServing(() => cache.serving);
  }

  /** Starts heartbeating; resolves once the first ping came back (or the bound passed: the cache then waits for one). */
  async start() {
    const back = new Promise<void>((resolve) => (this.firstPing = resolve));
    this.timer = setInterval(() => void this.beat(), this.timing.heartbeatMs);
    this.timer.unref();
    await this.beat();
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([back, new Promise((r) => (bound = setTimeout(r, this.timing.invalidationWaitMs)))]);
    clearTimeout(bound);
  }

  async stop() {
    clearInterval(this.timer);
    await removeAccessNode(this.db, { nodeId: this.nodeId }).catch((err) => this.logger.warn({ err }, 'access node row not removed'));
  }

  /** A notice on `access_changed`. */
  onNotice(payload: string) {
    const notice = parseAccessNotice(payload);
    if (notice.kind === 'ping') {
      if (notice.nodeId === this.nodeId) this.pingBack(notice.seq);
      return;
    }
    this.cache.invalidate(notice.tenantId);
    if (notice.kind === 'change') {
      acknowledgeAccessChange(this.db, { nodeId: this.nodeId, changeId: notice.changeId }).catch((err) =>
        this.logger.warn({ err }, 'access change not acknowledged'),
      );
    }
  }

  /** A notice on `access_acked`: `<node> <change>`. */
  onAck(payload: string) {
    const [nodeId, changeId] = payload.split(' ');
    const wait = changeId === undefined ? undefined : this.waits.get(changeId);
    if (!wait || !nodeId) return;
    wait.acked.add(nodeId);
    wait.check();
  }

  private pingBack(seq: number) {
    const sentAt = this.pingsInFlight.get(seq);
    if (sentAt === undefined) return;
    for (const s of this.pingsInFlight.keys()) if (s <= seq) this.pingsInFlight.delete(s);
    this.cache.proveHeartbeat(sentAt);
    this.firstPing?.();
    this.firstPing = undefined;
  }

  private async beat() {
    // One at a time: a slow database must not pile pings up; the silence limit covers the gap.
    if (this.beating) return;
    this.beating = true;
    const seq = ++this.seq;
    this.pingsInFlight.set(seq, performance.now());
    try {
      await beatAccessNode(this.db, { nodeId: this.nodeId, seq });
      if (this.beatFailing) this.logger.info('access node heartbeat back');
      this.beatFailing = false;
      if (seq % 1000 === 0) await deleteSilentAccessNodes(this.db, { olderThanMs: FORGET_AFTER_MS });
    } catch (err) {
      this.pingsInFlight.delete(seq);
      if (!this.beatFailing) this.logger.warn({ err }, 'access node heartbeat failed: the access cache stops serving until it is back');
      this.beatFailing = true;
    } finally {
      this.beating = false;
    }
  }

  /**
   * Called after an access write has committed: sends a change notice (which every node receives
   * after the write's own notice) and waits for every live node's acknowledgement, at most
   * access.invalidation-wait-ms counted from the notice's commit, which is what makes a node
   * that never answers safe: by then its silence limit has passed.
   */
  private async spread(tenantId: string) {
    const changeId = `${this.nodeId}.${++this.changes}`;
    const started = performance.now();
    const acked = new Set<string>();
    let live: string[] | undefined;
    let allAcked!: () => void;
    const done = new Promise<void>((resolve) => (allAcked = resolve));
    this.waits.set(changeId, { acked, check: () => live?.every((n) => acked.has(n)) && allAcked() });
    let bound: NodeJS.Timeout | undefined;
    try {
      live = await publishAccessChange(this.db, {
        changeId,
        tenantId,
        liveWithinMs: this.timing.invalidationWaitMs + this.timing.heartbeatMs,
      }).catch((err) => {
        // The write has committed; without a notice the full bound is still safe: a node that
        // has not applied the write's own notice by then has stopped serving from its cache.
        this.logger.warn({ err }, 'access change notice not sent: waiting the full bound');
        return undefined;
      });
      if (live?.every((n) => acked.has(n))) allAcked();
      await Promise.race([done, new Promise((r) => (bound = setTimeout(r, this.timing.invalidationWaitMs)))]);
      const missing = live ? live.filter((n) => !acked.has(n)) : ['?'];
      observeInvalidationWait((performance.now() - started) / 1000, missing.length);
      if (missing.length) this.logger.warn({ nodes: missing, changeId }, 'access change not acknowledged in time by every node (they have stopped serving from their caches)');
    } finally {
      clearTimeout(bound);
      this.waits.delete(changeId);
    }
  }
}
