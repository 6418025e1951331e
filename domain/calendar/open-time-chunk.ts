/**
 * One chunk of a calendar's open-time index: the union segments of a fixed UTC span, exactly as
 * `Timeline.segments(from, to)` gives them (so a segment that crosses a chunk border is cut
 * there), laid out in typed arrays with running sums, so that "where does the cumulative open
 * time reach X" and "which locations were open in segments i..j" are a binary search and a
 * subtraction instead of a walk.
 */
import type { CompiledCalendar } from './calendar-model.js';
import { Timeline } from './open-intervals.js';

/**
 * The chunk's queries are methods, not imported functions: under tsx's CommonJS transform every
 * call of an imported function is a getter call first.
 */
export class OpenTimeChunk {
  /** Recency stamp for eviction (set by the index). */
  lastUsed = 0;

  constructor(
    /** UTC span [from, to) the chunk covers. */
    readonly from: number,
    readonly to: number,
    /** Number of segments. */
    readonly n: number,
    readonly starts: Float64Array,
    readonly ends: Float64Array,
    /** cum[i]: open ms of segments 0..i-1 (n + 1 entries; cum[n] is the chunk's total). */
    readonly cum: Float64Array,
    /**
     * openCount[i * L + li]: in how many of segments 0..i-1 location li is open ((n + 1) × L). It
     * is the per-segment record of open locations (li is open in segment i when rows i and i + 1
     * differ) in a form where "did li contribute to segments i..j-1" is one subtraction.
     */
    readonly openCount: Int32Array,
    /** L: the calendar's (enabled) locations. */
    readonly locationCount: number,
    readonly bytes: number,
  ) {}

  /** Index of the first segment that ends after `t` (n when none does). */
  firstEndingAfter(t: number): number {
    const ends = this.ends;
    let lo = 0;
    let hi = this.n;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((ends[mid] as number) > t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Open ms in [from, t), for t within the chunk; `i` = firstEndingAfter(t). */
  openBefore(t: number, i: number): number {
    if (i >= this.n) return this.cum[this.n] as number;
    return (this.cum[i] as number) + Math.max(0, t - (this.starts[i] as number));
  }

  /** The segment (at or after `from`) in which the cumulative open time reaches `target` (> 0). */
  segmentReaching(target: number, from: number): number {
    const cum = this.cum;
    let lo = from;
    let hi = this.n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if ((cum[mid + 1] as number) >= target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }

  /** Indices of the locations open in segment i, ascending. */
  locationsOpenIn(i: number): number[] {
    const L = this.locationCount;
    const out: number[] = [];
    for (let li = 0; li < L; li++) {
      if ((this.openCount[(i + 1) * L + li] as number) > (this.openCount[i * L + li] as number)) out.push(li);
    }
    return out;
  }

  /** Marks in `used` (indexed by location) the locations open in some segment of [from, to). */
  markOpenLocations(from: number, to: number, used: Uint8Array): void {
    if (to <= from) return;
    const L = this.locationCount;
    const counts = this.openCount;
    for (let li = 0; li < L; li++) {
      if ((counts[to * L + li] as number) > (counts[from * L + li] as number)) used[li] = 1;
    }
  }
}

/** A rough per-chunk overhead (object, typed-array headers), so reported sizes are not flattering. */
const CHUNK_OVERHEAD_BYTES = 400;

export function buildChunk(calendar: CompiledCalendar, from: number, to: number): OpenTimeChunk {
  // A fresh Timeline per chunk: its day cache then lives only as long as the build.
  const segs = new Timeline(calendar).segments(from, to);
  const n = segs.length;
  const L = calendar.locations.length;
  const starts = new Float64Array(n);
  const ends = new Float64Array(n);
  const cum = new Float64Array(n + 1);
  const openCount = new Int32Array((n + 1) * L);
  for (let i = 0; i < n; i++) {
    const s = segs[i] as (typeof segs)[number];
    starts[i] = s.start;
    ends[i] = s.end;
    cum[i + 1] = (cum[i] as number) + (s.end - s.start);
    const row = i * L;
    for (let li = 0; li < L; li++) openCount[row + L + li] = openCount[row + li] as number;
    for (const li of s.locs) openCount[row + L + li] = (openCount[row + L + li] as number) + 1;
  }
  const bytes =
    CHUNK_OVERHEAD_BYTES + starts.byteLength + ends.byteLength + cum.byteLength + openCount.byteLength;
  return new OpenTimeChunk(from, to, n, starts, ends, cum, openCount, L, bytes);
}
