import type { CallerSnapshot } from '../db/queries/caller-snapshot';
import { countAccessCacheLookup } from '../integrations/metrics/access';

/** How a node makes a change reach every node before the writer answers (workers/access-node.ts). */
export type SpreadInvalidation = (tenantId: string) => Promise<void>;

/**
 * Per-node cache of caller snapshots, so a guarded request costs no database round trip.
 * Correctness does not rest on the TTL (docs/access.md "Caching across nodes"):
 * - every access write NOTIFYs `access_changed` with its tenant, and the writing request then
 *   waits until every live node has acknowledged a change notice sent after it
 *   (`invalidateEverywhere`), or a bounded wait has passed;
 * - a node serves from here only while its heartbeat, a ping through its own LISTEN connection,
 *   came back within the silence limit (no longer than that wait), so a node that misses notices
 *   has stopped serving from its cache before any writer stops waiting for it;
 * - a snapshot read from PostgreSQL while an invalidation arrived is not stored: it may predate it.
 * The TTL only bounds staleness if everything above failed.
 */
export class AccessCache {
  private readonly byTenant = new Map<string, Map<string, { snapshot: CallerSnapshot; expires: number }>>();
  private size = 0;
  /** Bumped by every invalidation; a load that began before a bump must not be stored. */
  private generation = 0;
  /** Loads in flight per key since a miss: the generation of the first, and how many. */
  private readonly loading = new Map<string, { generation: number; count: number }>();
  /** Monotonic time of the last heartbeat proven through LISTEN; Infinity limit: no proof asked. */
  private provenAt = Number.NEGATIVE_INFINITY;
  private silenceLimitMs = Number.POSITIVE_INFINITY;
  private spread: SpreadInvalidation | undefined;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
    private readonly monotonicNow: () => number = () => performance.now(),
  ) {}

  get enabled() {
    return this.ttlMs > 0;
  }

  /** Whether this node may answer from its cache now: its last heartbeat came back in time. */
  get serving() {
    return this.monotonicNow() - this.provenAt <= this.silenceLimitMs;
  }

  get(tenantId: string, userId: string): CallerSnapshot | undefined {
    const snapshot = this.serving ? this.find(tenantId, userId) : undefined;
    countAccessCacheLookup(snapshot !== undefined);
    if (snapshot === undefined && this.enabled) this.noteLoad(`${tenantId}\u0000${userId}`);
    return snapshot;
  }

  private find(tenantId: string, userId: string): CallerSnapshot | undefined {
    const entry = this.byTenant.get(tenantId)?.get(userId);
    if (!entry) return undefined;
    if (entry.expires <= this.now()) {
      this.byTenant.get(tenantId)?.delete(userId);
      this.size--;
      return undefined;
    }
    return entry.snapshot;
  }

  private noteLoad(key: string) {
    const load = this.loading.get(key);
    if (load) load.count++;
    else {
      // Loads whose caller never came back (a failed read) must not grow this without bound.
      if (this.loading.size >= this.maxEntries) this.loading.clear();
      this.loading.set(key, { generation: this.generation, count: 1 });
    }
  }

  /** Stores a snapshot read after a miss, unless an invalidation arrived since that miss. */
  set(tenantId: string, userId: string, snapshot: CallerSnapshot) {
    if (!this.enabled) return;
    const key = `${tenantId}\u0000${userId}`;
    const load = this.loading.get(key);
    if (load && --load.count <= 0) this.loading.delete(key);
    if (load && load.generation !== this.generation) return;
    if (!this.serving) return;
    if (this.size >= this.maxEntries) this.clear();
    let users = this.byTenant.get(tenantId);
    if (!users) this.byTenant.set(tenantId, (users = new Map()));
    if (!users.has(userId)) this.size++;
    users.set(userId, { snapshot, expires: this.now() + this.ttlMs });
  }

  /** `*` (or an empty payload) drops everything: global changes such as operator groups. */
  invalidate(tenantId: string) {
    if (tenantId === '*' || tenantId === '') return this.clear();
    this.generation++;
    const users = this.byTenant.get(tenantId);
    if (users) {
      this.size -= users.size;
      this.byTenant.delete(tenantId);
    }
  }

  clear() {
    this.generation++;
    this.byTenant.clear();
    this.size = 0;
  }

  /**
   * Drops the tenant here, then (when this node takes part in acknowledgements) resolves once
   * every live node has dropped it too, or the bounded wait has passed.
   */
  async invalidateEverywhere(tenantId: string) {
    this.invalidate(tenantId);
    await this.spread?.(tenantId);
  }

  /**
   * Turns on the heartbeat rule: from now on the cache serves only while a heartbeat proven
   * within `silenceLimitMs` (`proveHeartbeat`), and `invalidateEverywhere` uses `spread`.
   */
  coordinate(p: { silenceLimitMs: number; spread: SpreadInvalidation }) {
    this.silenceLimitMs = p.silenceLimitMs;
    this.provenAt = Number.NEGATIVE_INFINITY;
    this.spread = p.spread;
  }

  /**
   * A heartbeat sent at `sentAt` (monotonic) came back: every notice committed before it has
   * been applied. After a silence, start over: what was cached then was not kept honest.
   */
  proveHeartbeat(sentAt: number) {
    if (!this.serving) this.clear();
    this.provenAt = Math.max(this.provenAt, sentAt);
  }
}
