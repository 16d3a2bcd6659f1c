/**
 * The map matcher's oracles, written independently of engines/routing/match/ (pair-heap.ts, plain
 * arrays, full label arrays per search): the route metres of one HMM transition, and a Viterbi
 * decode over those metres without pruning. Same rules as the matcher: leave an edge onto any
 * edge the mode may use, no u-turn unless no other usable edge leaves the node, turn rule
 * honoured; a target behind the source within the back tolerance (along the edges that lead into
 * the source's edge) is a stay of 0 m. Answers are Infinity past the route limit.
 */
import type { CostModel } from '../../engines/routing/cost-model.ts';
import type { MatchState } from '../../engines/routing/match/candidates.ts';
import type { TurnRule } from '../../engines/routing/search.ts';
import { PairHeap } from './pair-heap.ts';

export interface ReferenceTransition {
  /** Metres of the route (0 for a stay), Infinity when none within the limit. */
  metres: number;
  /** The shortest way was backwards (a stay); null when unreached. */
  stay: boolean | null;
  /** Metres of the way before a stay is counted as 0 (what the limit applies to). */
  raw: number;
}

/** May a vehicle arriving over `e` leave by `f` (an edge out of e's target)? */
function canTurn(model: CostModel, rule: TurnRule | undefined, e: number, f: number): boolean {
  const g = model.graph;
  if (!model.allowed(f)) return false;
  const reverse = g.reverseEdge(e);
  if (f === reverse) {
    const { start, end } = g.edgesOf(g.edgeTarget(e));
    for (let o = start; o < end; o++) if (o !== reverse && model.allowed(o)) return false;
  }
  return !rule?.(e, f);
}

/** Metres on arriving at the end of each edge, from the source's position, up to `limit`. */
function forward(model: CostModel, rule: TurnRule | undefined, source: MatchState, limit: number): Float64Array {
  const g = model.graph;
  const best = new Float64Array(g.edgeCount).fill(Infinity);
  const heap = new PairHeap();
  best[source.edge] = (1 - source.fraction) * g.arrays.edgeLength[source.edge]!;
  heap.push(best[source.edge]!, source.edge);
  const settled = new Uint8Array(g.edgeCount);
  while (heap.size > 0) {
    const [m, e] = heap.pop();
    if (settled[e] || m > limit) continue;
    settled[e] = 1;
    const { start, end } = g.edgesOf(g.edgeTarget(e));
    for (let f = start; f < end; f++) {
      if (!canTurn(model, rule, e, f)) continue;
      const mf = m + g.arrays.edgeLength[f]!;
      if (mf < best[f]!) {
        best[f] = mf;
        heap.push(mf, f);
      }
    }
  }
  return best;
}

/** Metres back from the source's position to the start of each edge behind it, below `tolerance`. */
function backward(model: CostModel, rule: TurnRule | undefined, incoming: number[][], source: MatchState, tolerance: number): Float64Array {
  const g = model.graph;
  const back = new Float64Array(g.edgeCount).fill(Infinity);
  const heap = new PairHeap();
  back[source.edge] = source.fraction * g.arrays.edgeLength[source.edge]!;
  heap.push(back[source.edge]!, source.edge);
  const settled = new Uint8Array(g.edgeCount);
  while (heap.size > 0) {
    const [b, x] = heap.pop();
    if (settled[x]) continue;
    settled[x] = 1;
    for (const e of incoming[g.edgeSource(x)]!) {
      if (!model.allowed(e) || !canTurn(model, rule, e, x)) continue;
      const be = b + g.arrays.edgeLength[e]!;
      if (be < tolerance && be < back[e]!) {
        back[e] = be;
        heap.push(be, e);
      }
    }
  }
  return back;
}

/** Incoming edges per node of the model's graph. */
export function incomingLists(model: CostModel): number[][] {
  const g = model.graph;
  const lists: number[][] = Array.from({ length: g.nodeCount }, () => []);
  for (let e = 0; e < g.edgeCount; e++) lists[g.edgeTarget(e)]!.push(e);
  return lists;
}

/** The transition from `source` to each target: the shortest of moving ahead and (within `tolerance`) staying. */
export function referenceTransitions(
  model: CostModel, rule: TurnRule | undefined, incoming: number[][], source: MatchState, targets: readonly MatchState[], limit: number, tolerance: number,
): ReferenceTransition[] {
  const g = model.graph;
  const len = (e: number) => g.arrays.edgeLength[e]!;
  const ahead = forward(model, rule, source, limit);
  const behind = tolerance > 0 ? backward(model, rule, incoming, source, tolerance) : null;
  return targets.map((t) => {
    let moving = Infinity;
    let staying = Infinity;
    if (t.edge === source.edge) {
      const span = (t.fraction - source.fraction) * len(t.edge);
      if (span >= 0) moving = span;
      else if (-span <= tolerance) staying = -span;
    }
    // Into the target's edge from any edge reached (its end is the target edge's start).
    for (const e of incoming[g.edgeSource(t.edge)]!) {
      if (ahead[e]! < Infinity && canTurn(model, rule, e, t.edge)) moving = Math.min(moving, ahead[e]! + t.fraction * len(t.edge));
    }
    // Behind: the target's edge leads into an edge whose way back is known.
    if (behind && model.allowed(t.edge)) {
      const { start, end } = g.edgesOf(g.edgeTarget(t.edge));
      for (let x = start; x < end; x++) {
        if (behind[x]! === Infinity || !canTurn(model, rule, t.edge, x)) continue;
        const d = behind[x]! + (1 - t.fraction) * len(t.edge);
        if (d <= tolerance) staying = Math.min(staying, d);
      }
    }
    const raw = Math.min(moving, staying);
    if (raw > limit) return { metres: Infinity, stay: null, raw };
    const stay = staying < moving;
    return { metres: stay ? 0 : moving, stay, raw };
  });
}
