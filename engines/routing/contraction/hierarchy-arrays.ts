/**
 * The contracted arcs laid out as the hierarchy's arrays (format.ts), in place: every arc goes to
 * its lower-ranked end in CSR, up arcs first, and its unpacking references are renumbered. The
 * arc store's own arrays are permuted (cycle by cycle) and the hierarchy's sections are views of
 * them, so the layout costs a few per-node arrays and a bitset rather than a second copy of every
 * arc (about 25 bytes an arc; 3 GB on a 25-million-node graph).
 */
import type { ArcStore } from './build-graph.ts';
import { NO_ARC, type ChArrays } from './format.ts';
import type { RegionArrays } from './region.ts';

export type HierarchyArcArrays = Omit<ChArrays, keyof RegionArrays | 'rank' | 'edgeWeight'>;

/**
 * `arcs` after contraction (an original arc's `a` is its road edge): its tail, head, weight, a, b
 * and hops arrays are consumed — the result views them, and the store must not be used again.
 */
export function hierarchyArcArrays(arcs: ArcStore, rank: Uint32Array): HierarchyArcArrays {
  const n = rank.length;
  const total = arcs.count;
  const { tail, head, weight, a, b } = arcs;
  const upFirst = new Uint32Array(n + 1);
  const downFirst = new Uint32Array(n + 1);
  for (let id = 0; id < total; id++) {
    const t = tail[id]!;
    const h = head[id]!;
    if (rank[t]! < rank[h]!) upFirst[t + 1] = upFirst[t + 1]! + 1;
    else downFirst[h + 1] = downFirst[h + 1]! + 1;
  }
  for (let v = 0; v < n; v++) {
    upFirst[v + 1] = upFirst[v + 1]! + upFirst[v]!;
    downFirst[v + 1] = downFirst[v + 1]! + downFirst[v]!;
  }
  const upArcs = upFirst[n]!;
  // Each arc's final id (into hops, no longer needed), and its stored end into head: the head of
  // an up arc, the tail of a down arc (stored at its head).
  const finalId = arcs.hops;
  const upFill = upFirst.slice(0, n);
  const downFill = downFirst.slice(0, n);
  for (let id = 0; id < total; id++) {
    const t = tail[id]!;
    const h = head[id]!;
    if (rank[t]! < rank[h]!) {
      finalId[id] = upFill[t]!;
      upFill[t] = upFill[t]! + 1;
    } else {
      finalId[id] = upArcs + downFill[h]!;
      downFill[h] = downFill[h]! + 1;
      head[id] = t;
    }
  }
  for (let id = 0; id < total; id++) {
    if (b[id] === NO_ARC) continue;
    a[id] = finalId[a[id]!]!;
    b[id] = finalId[b[id]!]!;
  }
  permute(finalId, total, head, weight, a, b);
  return {
    upFirst, downFirst,
    upHead: head.subarray(0, upArcs), downHead: head.subarray(upArcs, total),
    upWeight: weight.subarray(0, upArcs), downWeight: weight.subarray(upArcs, total),
    arcA: a.subarray(0, total), arcB: b.subarray(0, total),
  };
}

/** Moves entry i of each array to position to[i] (a permutation of 0..count-1), following its cycles. */
function permute(to: Uint32Array, count: number, head: Uint32Array, weight: Float64Array, a: Uint32Array, b: Uint32Array): void {
  const done = new Uint32Array((count + 31) >>> 5);
  for (let start = 0; start < count; start++) {
    if ((done[start >>> 5]! & (1 << (start & 31))) !== 0) continue;
    let h = head[start]!;
    let w = weight[start]!;
    let x = a[start]!;
    let y = b[start]!;
    let from = start;
    for (;;) {
      done[from >>> 5] = done[from >>> 5]! | (1 << (from & 31));
      const dst = to[from]!;
      const h2 = head[dst]!;
      const w2 = weight[dst]!;
      const x2 = a[dst]!;
      const y2 = b[dst]!;
      head[dst] = h;
      weight[dst] = w;
      a[dst] = x;
      b[dst] = y;
      if (dst === start) break;
      h = h2;
      w = w2;
      x = x2;
      y = y2;
      from = dst;
    }
  }
}
