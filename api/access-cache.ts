import type { CallerSnapshot } from '../db/queries/caller-snapshot';
import { countAccessCacheLookup } from '../integrations/metrics/access';

/**
 * Per-node cache of caller snapshots, so a guarded request costs no database round trip.
 * Correctness does not rest on the TTL: every access write NOTIFYs `access_changed` with its
 * tenant (other nodes drop that tenant), the node that wrote drops it synchronously, and a
 * LISTEN reconnect clears everything. The TTL only bounds staleness if a notice is ever lost.
 */
export class AccessCache {
  private readonly byTenant = new Map<string, Map<string, { snapshot: CallerSnapshot; expires: number }>>();
  private size = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 100_000,
    private readonly now: () => number = Date.now,
  ) {}

  get enabled() {
    return this.ttlMs > 0;
  }

  get(tenantId: string, userId: string): CallerSnapshot | undefined {
    const snapshot = this.find(tenantId, userId);
    countAccessCacheLookup(snapshot !== undefined);
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

  set(tenantId: string, userId: string, snapshot: CallerSnapshot) {
    if (!this.enabled) return;
    if (this.size >= this.maxEntries) this.clear();
    let users = this.byTenant.get(tenantId);
    if (!users) this.byTenant.set(tenantId, (users = new Map()));
    if (!users.has(userId)) this.size++;
    users.set(userId, { snapshot, expires: this.now() + this.ttlMs });
  }

  /** `*` (or an empty payload) drops everything: global changes such as operator groups. */
  invalidate(tenantId: string) {
    if (tenantId === '*' || tenantId === '') return this.clear();
    const users = this.byTenant.get(tenantId);
    if (users) {
      this.size -= users.size;
      this.byTenant.delete(tenantId);
    }
  }

  clear() {
    this.byTenant.clear();
    this.size = 0;
  }
}
