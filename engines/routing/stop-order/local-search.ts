/**
 * Local search on a reduced tour (problem.ts: tour[0] = 0 is the depot and stays first; the tour
 * closes back to it) with three asymmetric-aware moves, each applied at once when it lowers the
 * cost, until none does:
 * - 2-opt: reverse tour[i..j]. On an asymmetric matrix the reversed segment is travelled the other
 *   way, so its inner cost is recomputed: prefix sums of the forward and backward costs along the
 *   tour give both in O(1).
 * - Segment exchange (or-3opt): swap two adjacent segments of any length, keeping both
 *   orientations — the one 3-opt reconnection that reverses nothing, so exact on an asymmetric
 *   matrix. It includes Or-opt's moves of a segment as it is; O(m³) triples per pass, pruned by
 *   the gain criterion to the few that can improve.
 * - Or-opt reversed: move a segment of 2 or 3 nodes elsewhere, reversed.
 * Moves are taken only when they gain more than IMPROVEMENT_EPSILON, so float noise cannot cycle.
 */
import type { StopOrderProblem } from './problem.ts';

const IMPROVEMENT_EPSILON = 1e-7;
const OR_OPT_MAX = 3;

class TourState {
  readonly m: number;
  readonly cost: Float64Array;
  /** forward[p]: cost of tour[0] → … → tour[p]; backward[p]: of travelling the same nodes the other way. */
  readonly forward: Float64Array;
  readonly backward: Float64Array;
  readonly scratch: Int32Array;

  constructor(problem: StopOrderProblem, readonly tour: Int32Array) {
    this.m = problem.m;
    this.cost = problem.cost;
    this.forward = new Float64Array(this.m);
    this.backward = new Float64Array(this.m);
    this.scratch = new Int32Array(this.m);
    this.prefixes();
  }

  /** The node at position p; position m is the depot again. */
  at(p: number): number {
    return p === this.m ? 0 : this.tour[p]!;
  }

  c(a: number, b: number): number {
    return this.cost[a * this.m + b]!;
  }

  prefixes(): void {
    const { tour, forward, backward, m } = this;
    for (let p = 1; p < m; p++) {
      forward[p] = forward[p - 1]! + this.c(tour[p - 1]!, tour[p]!);
      backward[p] = backward[p - 1]! + this.c(tour[p]!, tour[p - 1]!);
    }
  }

  /** Rewrites positions from..to-1 with `nodes` (as many). */
  write(from: number, nodes: ArrayLike<number>): void {
    for (let k = 0; k < nodes.length; k++) this.tour[from + k] = nodes[k]!;
  }
}

function twoOpt(s: TourState): boolean {
  const { m, tour, forward, backward } = s;
  let improved = false;
  for (let i = 1; i < m - 1; i++) {
    for (let j = i + 1; j < m; j++) {
      const a = tour[i - 1]!, b = s.at(j + 1), first = tour[i]!, last = tour[j]!;
      const delta = s.c(a, last) + s.c(first, b) + (backward[j]! - backward[i]!) - s.c(a, first) - s.c(last, b) - (forward[j]! - forward[i]!);
      if (delta < -IMPROVEMENT_EPSILON) {
        tour.subarray(i, j + 1).reverse();
        s.prefixes();
        improved = true;
      }
    }
  }
  return improved;
}

/**
 * Or-opt with the segment reversed (2 or 3 nodes): a segment moved as it is is a segment
 * exchange, which segmentExchange already tries.
 */
function reversedOrOpt(s: TourState): boolean {
  const { m, tour, forward, backward, scratch } = s;
  let improved = false;
  for (let length = 2; length <= OR_OPT_MAX; length++) {
    for (let i = 1; i + length - 1 < m; i++) {
      const end = i + length - 1;
      const a = tour[i - 1]!, b = s.at(end + 1), first = tour[i]!, last = tour[end]!;
      const removed = s.c(a, first) + (forward[end]! - forward[i]!) + s.c(last, b) - s.c(a, b);
      const innerBack = backward[end]! - backward[i]!;
      let bestDelta = -IMPROVEMENT_EPSILON;
      let bestAt = -1;
      for (let p = 0; p < m; p++) {
        if (p >= i - 1 && p <= end) continue;
        const u = tour[p]!, v = s.at(p + 1);
        const delta = s.c(u, last) + innerBack + s.c(first, v) - s.c(u, v) - removed;
        if (delta < bestDelta) {
          bestDelta = delta;
          bestAt = p;
        }
      }
      if (bestAt < 0) continue;
      // Rebuild the span between the segment and its new place.
      const segment = scratch.subarray(0, length);
      segment.set(tour.subarray(i, end + 1));
      segment.reverse();
      if (bestAt > end) {
        tour.copyWithin(i, end + 1, bestAt + 1);
        s.write(bestAt - length + 1, segment);
      } else {
        tour.copyWithin(bestAt + 1 + length, bestAt + 1, i);
        s.write(bestAt + 1, segment);
      }
      s.prefixes();
      improved = true;
    }
  }
  return improved;
}

/** The change of cost of a S1 S2 b → a S2 S1 b, with S1 = tour[i..j-1] and S2 = tour[j..l-1]. */
function exchangeDelta(s: TourState, i: number, j: number, l: number): number {
  const { tour } = s;
  const a = tour[i - 1]!, b = s.at(l);
  const firstOne = tour[i]!, lastOne = tour[j - 1]!, firstTwo = tour[j]!, lastTwo = tour[l - 1]!;
  return s.c(a, firstTwo) + s.c(lastTwo, firstOne) + s.c(lastOne, b) - s.c(a, firstOne) - s.c(lastOne, firstTwo) - s.c(lastTwo, b);
}

function exchange(s: TourState, i: number, j: number, l: number): void {
  const { tour, scratch } = s;
  const span = scratch.subarray(0, l - i);
  span.set(tour.subarray(j, l), 0);
  span.set(tour.subarray(i, j), l - j);
  s.write(i, span);
  s.prefixes();
}

/**
 * Segment exchange. The move replaces the edges out of a, lastOne and lastTwo; its gain is the sum
 * of what each of the three saves, so an improving move saves on at least one of them. Each of
 * the three loops fixes the pair that makes one saving positive (a cheap O(m²) filter: in a good
 * tour few nodes are nearer to another than to their successor) and tries every third index.
 */
function segmentExchange(s: TourState): boolean {
  const { m, tour } = s;
  let improved = false;
  const take = (i: number, j: number, l: number): void => {
    if (exchangeDelta(s, i, j, l) < -IMPROVEMENT_EPSILON) {
      exchange(s, i, j, l);
      improved = true;
    }
  };
  // a = tour[i-1] saves: c(a, tour[j]) < c(a, tour[i]).
  for (let i = 1; i < m - 1; i++) {
    for (let j = i + 1; j < m; j++) {
      if (s.c(tour[i - 1]!, tour[j]!) >= s.c(tour[i - 1]!, tour[i]!)) continue;
      for (let l = j + 1; l <= m; l++) take(i, j, l);
    }
  }
  // lastOne = tour[j-1] saves: c(lastOne, tour[l]) < c(lastOne, tour[j]).
  for (let j = 2; j < m; j++) {
    for (let l = j + 1; l <= m; l++) {
      if (s.c(tour[j - 1]!, s.at(l)) >= s.c(tour[j - 1]!, tour[j]!)) continue;
      for (let i = 1; i < j; i++) take(i, j, l);
    }
  }
  // lastTwo = tour[l-1] saves: c(lastTwo, tour[i]) < c(lastTwo, tour[l]).
  for (let l = 3; l <= m; l++) {
    for (let i = 1; i < l - 1; i++) {
      if (s.c(tour[l - 1]!, tour[i]!) >= s.c(tour[l - 1]!, s.at(l))) continue;
      for (let j = i + 1; j < l; j++) take(i, j, l);
    }
  }
  return improved;
}

/** Improves `tour` in place to a local optimum of the three moves; returns it. */
export function localSearch(problem: StopOrderProblem, tour: Int32Array): Int32Array {
  if (problem.m < 3) return tour;
  const s = new TourState(problem, tour);
  for (;;) {
    while (segmentExchange(s));
    const reversed = twoOpt(s);
    if (!reversedOrOpt(s) && !reversed) return tour;
  }
}
