/**
 * Interval arithmetic on half-open [start, end) instants held in flat arrays
 * ([s0, e0, s1, e1, ...]) to keep allocation low.
 */

/** A stretch of the union during which the same set of locations is open. */
export interface Segment {
  start: number;
  end: number;
  /** Indices of the open (compiled) locations, ascending. */
  locs: number[];
}

/** Sorts and merges overlapping or touching intervals of a flat array. */
export function mergeIntervals(flat: number[]): number[] {
  const n = flat.length >> 1;
  if (n <= 1) return flat;
  let sorted = true;
  for (let i = 1; i < n; i++) {
    if ((flat[2 * i] as number) < (flat[2 * i - 2] as number)) {
      sorted = false;
      break;
    }
  }
  let src = flat;
  if (!sorted) {
    const order = Array.from({ length: n }, (_, i) => i);
    order.sort((a, b) => (flat[2 * a] as number) - (flat[2 * b] as number));
    src = new Array<number>(2 * n);
    for (let i = 0; i < n; i++) {
      const k = order[i] as number;
      src[2 * i] = flat[2 * k] as number;
      src[2 * i + 1] = flat[2 * k + 1] as number;
    }
  }
  const out: number[] = [];
  let cs = src[0] as number;
  let ce = src[1] as number;
  for (let i = 1; i < n; i++) {
    const s = src[2 * i] as number;
    const e = src[2 * i + 1] as number;
    if (s <= ce) {
      if (e > ce) ce = e;
    } else {
      out.push(cs, ce);
      cs = s;
      ce = e;
    }
  }
  out.push(cs, ce);
  return out;
}

/**
 * Union of several locations' merged intervals, split wherever the set of open locations
 * changes. `perLocation[i]` must be sorted, disjoint and non-touching (mergeIntervals output).
 * Output segments are ordered, non-overlapping and non-empty; consecutive segments that touch
 * always have different sets.
 */
export function sweepUnion(perLocation: readonly number[][]): Segment[] {
  const L = perLocation.length;
  const out: Segment[] = [];
  if (L === 1) {
    const only = perLocation[0] as number[];
    for (let i = 0; i < only.length; i += 2) out.push({ start: only[i] as number, end: only[i + 1] as number, locs: [0] });
    return out;
  }
  // k-way merge of the sorted lists: no sorting, one pass over the boundaries.
  const ptr = new Int32Array(L); // index of each location's current/next interval start (even)
  const open = new Uint8Array(L);
  let openCount = 0;
  let t = -Infinity;
  for (;;) {
    let next = Infinity;
    for (let li = 0; li < L; li++) {
      const iv = perLocation[li] as number[];
      const p = ptr[li] as number;
      if (open[li]) {
        const e = iv[p + 1] as number;
        if (e < next) next = e;
      } else if (p < iv.length) {
        const s = iv[p] as number;
        if (s < next) next = s;
      }
    }
    if (next === Infinity) break;
    if (openCount > 0 && next > t) {
      const locs: number[] = [];
      for (let li = 0; li < L; li++) if (open[li]) locs.push(li);
      out.push({ start: t, end: next, locs });
    }
    for (let li = 0; li < L; li++) {
      const iv = perLocation[li] as number[];
      const p = ptr[li] as number;
      if (open[li]) {
        if (iv[p + 1] === next) {
          open[li] = 0;
          openCount--;
          ptr[li] = p + 2;
        }
      } else if (p < iv.length && iv[p] === next) {
        open[li] = 1;
        openCount++;
      }
    }
    t = next;
  }
  return out;
}
