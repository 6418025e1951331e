import type { DbOrTx } from '../../db/client';
import { type CalendarVersion, loadCalendarSnapshot } from '../../db/queries/calendar-snapshot';
import { type CompiledCalendar, compileCalendar, openTimeIndexFootprint, openTimeIndexOf } from '../../domain/calendar/index';
import type { Settings } from '../../domain/settings';
import { countCompiledCalendarLookup, type CompiledCalendarCacheSize } from '../../integrations/metrics/calendars';

/** A calendar of a tenant at a rules version, as `readCalendarVersion` / `readSlaCalendarVersion` read it. */
export type CalendarVersionRef = CalendarVersion & { tenantId: string };

/** A compiled calendar with the rules version of the snapshot it was compiled from. */
export interface CompiledCalendarEntry {
  rulesVersion: number;
  compiled: CompiledCalendar;
}

interface Loading {
  rulesVersion: number;
  promise: Promise<CompiledCalendarEntry | null>;
}

/**
 * A process's compiled calendars, `{tenantId, calendarId} → {rulesVersion, compiled}`, so that a
 * due date on a calendar in use is an open-time index lookup instead of loading, compiling and
 * indexing the calendar again (docs/calendars.md "Compiled calendar cache"). Built once per
 * process by its composition root (`workers/api-node.ts`, `workers/worker-integrations.ts`).
 *
 * Correct across nodes without any message: every request reads the calendar's current
 * `rules_version` (raised by PostgreSQL triggers on every change of the calendar's engine input)
 * and uses an entry only at that version (or a newer one, committed since). Bounded: at most `maxCalendars` entries, least
 * recently used dropped first; each entry's index is bounded by the engine (96 chunks or 1 MiB).
 *
 * An entry is never mutated: a newer version replaces it with a newly compiled object (the old
 * one may still serve a request in flight). Entries are frozen after their index slot is made.
 */
export class CompiledCalendarCache {
  /** Insertion order is recency: a hit moves its entry to the end, eviction takes the first. */
  private readonly entries = new Map<string, CompiledCalendarEntry>();
  /** Loads in flight, so concurrent misses of one calendar version compile it once. */
  private readonly loading = new Map<string, Loading>();

  constructor(readonly maxCalendars: number) {
    if (!Number.isInteger(maxCalendars) || maxCalendars < 1) throw new RangeError(`maxCalendars must be a positive integer, got ${maxCalendars}`);
  }

  /**
   * The compiled calendar at `ref`'s version: the cached one when it is that version (or a newer
   * one, committed after `ref` was read), else `load()`'s, which replaces the entry. `load` reads
   * the snapshot with the version it was read at, which may be newer than `ref`'s (a change
   * committed in between): it is kept under its own version and used all the same. Null when
   * `load` finds no calendar (the entry is dropped).
   */
  async resolve(ref: CalendarVersionRef, load: () => Promise<CompiledCalendarEntry | null>): Promise<CompiledCalendar | null> {
    const key = keyOf(ref);
    const held = this.entries.get(key);
    if (held !== undefined && held.rulesVersion >= ref.rulesVersion) {
      this.entries.delete(key);
      this.entries.set(key, held);
      countCompiledCalendarLookup('hit');
      return held.compiled;
    }
    countCompiledCalendarLookup(held === undefined ? 'miss' : 'stale');
    let pending = this.loading.get(key);
    if (pending === undefined || pending.rulesVersion < ref.rulesVersion) {
      const promise = load().then((entry) => {
        if (entry !== null) this.store(key, entry);
        else this.entries.delete(key);
        return entry;
      });
      const mine: Loading = { rulesVersion: ref.rulesVersion, promise };
      this.loading.set(key, mine);
      const done = () => {
        if (this.loading.get(key) === mine) this.loading.delete(key);
      };
      promise.then(done, done);
      pending = mine;
    }
    return (await pending.promise)?.compiled ?? null;
  }

  /** What is held for a calendar, without loading or touching recency (tests, diagnostics). */
  peek(ref: { tenantId: string; calendarId: string }): CompiledCalendarEntry | undefined {
    return this.entries.get(keyOf(ref));
  }

  /** Compiled calendars held. */
  get size(): number {
    return this.entries.size;
  }

  /** What the cache holds: calendars and the bytes of their open-time indexes (the metrics gauges). */
  footprint(): CompiledCalendarCacheSize {
    let indexBytes = 0;
    for (const { compiled } of this.entries.values()) indexBytes += openTimeIndexFootprint(compiled).bytes;
    return { calendars: this.entries.size, indexBytes };
  }

  /** Keeps `entry` unless a newer version of the calendar is already held; evicts beyond the bound. */
  private store(key: string, entry: CompiledCalendarEntry): void {
    const held = this.entries.get(key);
    if (held !== undefined && held.rulesVersion > entry.rulesVersion) return;
    // The index slot is made before freezing (the engine fills the index, never the calendar).
    openTimeIndexOf(entry.compiled);
    Object.freeze(entry.compiled.locations);
    Object.freeze(entry.compiled);
    this.entries.delete(key);
    this.entries.set(key, entry);
    while (this.entries.size > this.maxCalendars) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }
}

const keyOf = (ref: { tenantId: string; calendarId: string }) => `${ref.tenantId}/${ref.calendarId}`;

/**
 * The compiled calendar of `ref`, from `calendars` when it holds that version, else loaded and
 * compiled (and kept); null when the calendar is gone. Compile errors (bad stored data) are thrown
 * and nothing is kept.
 *
 * The cached snapshot holds every holiday of the calendar, not those from the received time on
 * (as the one-off `holidaysFrom` load does): one compiled calendar serves requests at any instant,
 * so it may depend on nothing but the calendar's rules version. A fixed cut-off would have to be
 * part of the key and still miss requests received before it; imported history costs compile
 * time once per version and a few bytes per holiday in the compiled day index.
 */
export function compiledCalendarAt(db: DbOrTx, calendars: CompiledCalendarCache, ref: CalendarVersionRef): Promise<CompiledCalendar | null> {
  return calendars.resolve(ref, async () => {
    const snapshot = await loadCalendarSnapshot(db, { tenantId: ref.tenantId, calendarId: ref.calendarId });
    if (snapshot === null) return null;
    return { rulesVersion: snapshot.rulesVersion, compiled: compileCalendar(snapshot) };
  });
}

/** The process's cache as the setting `calendar.compiled-cache-size` asks (0: none). Call it in a composition root only. */
export function compiledCalendarCacheFor(settings: Pick<Settings, 'calendar.compiled-cache-size'>): CompiledCalendarCache | undefined {
  const size = settings['calendar.compiled-cache-size'];
  return size > 0 ? new CompiledCalendarCache(size) : undefined;
}
