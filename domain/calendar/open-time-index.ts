/**
 * The open-time index of a compiled calendar: the union of its locations' open segments,
 * materialised on demand in fixed UTC chunks (2^k days, aligned on the epoch) with running sums of
 * open time, and memoised per CompiledCalendar object. A due date is then a few chunk lookups
 * (one subtraction per whole chunk) and a binary search inside the last one, instead of laying
 * out days of hours, holidays and zone offsets on every calculation.
 *
 * The compiled calendar is what a service caches per calendar version; the index lives and dies
 * with it (a slot on the object, so nothing here outlives a dropped compiled calendar). Memory per
 * calendar is bounded: past `maxChunks` chunks or `maxBytes` bytes the least recently used chunks
 * are dropped and rebuilt if asked for again (same answers: a chunk is a pure function of the
 * calendar and its span).
 */
import type { CompiledCalendar } from './calendar-model.js';
import { DAY_MS } from './civil-date.js';
import { type OpenTimeChunk, buildChunk } from './open-time-chunk.js';

/**
 * Slot of a compiled calendar's index, on the object rather than in a WeakMap: calendars compiled
 * per request churn, and ephemeron entries made garbage collection a third of a one-off
 * calculation.
 */
const OPEN_TIME_INDEX = Symbol('openTimeIndex');
type Indexed = CompiledCalendar & { [OPEN_TIME_INDEX]?: OpenTimeIndex };

export interface OpenTimeIndexOptions {
  /** Days per chunk (a power of two). */
  chunkDays?: number;
  /** Most chunks kept. */
  maxChunks?: number;
  /** Most bytes kept (the chunk in use is kept even when alone over it). */
  maxBytes?: number;
}

/**
 * Eight days: a chunk of a few locations builds in some ten microseconds, so a one-off calculation
 * on a fresh calendar (a cache miss) costs about what a direct walk did, while a 30-business-day
 * budget still crosses only a handful of chunks.
 */
export const DEFAULT_CHUNK_DAYS = 8;
/** 96 chunks of 8 days: two years around the instants in use. */
export const DEFAULT_MAX_CHUNKS = 96;
export const DEFAULT_MAX_BYTES = 1024 * 1024;

export interface OpenTimeIndexFootprint {
  chunks: number;
  segments: number;
  bytes: number;
  chunkDays: number;
  maxChunks: number;
  maxBytes: number;
  /** Chunks built so far (rebuilds after eviction included). */
  builds: number;
  evictions: number;
}

export class OpenTimeIndex {
  readonly chunkMs: number;
  readonly maxChunks: number;
  readonly maxBytes: number;
  /** True when no enabled location has any applicable window at all. */
  readonly hasNoHours: boolean;
  private readonly chunks = new Map<number, OpenTimeChunk>();
  private bytes = 0;
  private clock = 0;
  private builds = 0;
  private evictions = 0;

  constructor(
    readonly calendar: CompiledCalendar,
    options: OpenTimeIndexOptions = {},
  ) {
    const chunkDays = options.chunkDays ?? DEFAULT_CHUNK_DAYS;
    if (!Number.isInteger(chunkDays) || chunkDays < 1 || (chunkDays & (chunkDays - 1)) !== 0) {
      throw new RangeError(`chunkDays must be a power of two, got ${chunkDays}`);
    }
    this.chunkMs = chunkDays * DAY_MS;
    this.maxChunks = Math.max(1, options.maxChunks ?? DEFAULT_MAX_CHUNKS);
    this.maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
    this.hasNoHours = !calendar.locations.some((l) => l.hasWindows);
  }

  /** The chunk that covers instant `t`. */
  chunkAt(t: number): OpenTimeChunk {
    return this.chunk(Math.floor(t / this.chunkMs));
  }

  private chunk(k: number): OpenTimeChunk {
    let c = this.chunks.get(k);
    if (c === undefined) {
      c = buildChunk(this.calendar, k * this.chunkMs, (k + 1) * this.chunkMs);
      this.builds++;
      this.chunks.set(k, c);
      this.bytes += c.bytes;
      this.evictBeyondBounds(c);
    }
    c.lastUsed = ++this.clock;
    return c;
  }

  /** Drops least recently used chunks until within bounds, never `keep` (the one in use). */
  private evictBeyondBounds(keep: OpenTimeChunk): void {
    while (this.chunks.size > this.maxChunks || (this.bytes > this.maxBytes && this.chunks.size > 1)) {
      let oldestKey: number | undefined;
      let oldest = Infinity;
      for (const [k, c] of this.chunks) {
        if (c !== keep && c.lastUsed < oldest) {
          oldest = c.lastUsed;
          oldestKey = k;
        }
      }
      if (oldestKey === undefined) return;
      this.bytes -= (this.chunks.get(oldestKey) as OpenTimeChunk).bytes;
      this.chunks.delete(oldestKey);
      this.evictions++;
    }
  }

  /**
   * The end of `budgetMs` of open time consumed from `start` within [start, limit), or undefined
   * when there is not that much. Marks in `used` (a flag per location index) every location open
   * in a segment that was consumed from.
   */
  consume(start: number, limit: number, budgetMs: number, used: Uint8Array): number | undefined {
    let remaining = budgetMs;
    let t = start;
    for (let k = Math.floor(start / this.chunkMs); k * this.chunkMs < limit; k++) {
      const c = this.chunk(k);
      const first = t > c.from ? c.firstEndingAfter(t) : 0;
      const before = c.openBefore(t, first);
      const end = Math.min(c.to, limit);
      const upto = end < c.to ? c.openBefore(end, c.firstEndingAfter(end)) : (c.cum[c.n] as number);
      if (upto - before >= remaining) {
        const target = before + remaining;
        const q = c.segmentReaching(target, first);
        c.markOpenLocations(first, q + 1, used);
        return (c.starts[q] as number) + (target - (c.cum[q] as number));
      }
      c.markOpenLocations(first, c.n, used);
      remaining -= upto - before;
      t = c.to;
    }
    return undefined;
  }

  /** The first open instant at or after `t` and before `limit`, or undefined. */
  firstOpen(t: number, limit: number): number | undefined {
    for (let k = Math.floor(t / this.chunkMs); k * this.chunkMs < limit; k++) {
      const c = this.chunk(k);
      const i = t > c.from ? c.firstEndingAfter(t) : 0;
      if (i < c.n) {
        const at = Math.max(c.starts[i] as number, t);
        return at < limit ? at : undefined;
      }
    }
    return undefined;
  }

  footprint(): OpenTimeIndexFootprint {
    let segments = 0;
    for (const c of this.chunks.values()) segments += c.n;
    return {
      chunks: this.chunks.size,
      segments,
      bytes: this.bytes,
      chunkDays: this.chunkMs / DAY_MS,
      maxChunks: this.maxChunks,
      maxBytes: this.maxBytes,
      builds: this.builds,
      evictions: this.evictions,
    };
  }
}

/**
 * The open-time index memoised on a compiled calendar (built empty on first use, filled lazily).
 * A compiled calendar must not be mutated after compilation: compile a new one per version.
 */
export function openTimeIndexOf(calendar: CompiledCalendar): OpenTimeIndex {
  const held = (calendar as Indexed)[OPEN_TIME_INDEX];
  if (held !== undefined && held.calendar === calendar) return held;
  // None yet, or one a spread ({ ...compiled, locations }) copied over from another object, which
  // may describe other locations.
  return ((calendar as Indexed)[OPEN_TIME_INDEX] = new OpenTimeIndex(calendar));
}

/**
 * Gives `calendar` a fresh, empty index with other bounds or chunk size than the defaults (call it
 * right after compiling); returns the calendar.
 */
export function configureOpenTimeIndex(calendar: CompiledCalendar, options: OpenTimeIndexOptions): CompiledCalendar {
  (calendar as Indexed)[OPEN_TIME_INDEX] = new OpenTimeIndex(calendar, options);
  return calendar;
}

/** Size of a compiled calendar's index right now (zero chunks when it has not been used). */
export function openTimeIndexFootprint(calendar: CompiledCalendar): OpenTimeIndexFootprint {
  return openTimeIndexOf(calendar).footprint();
}
