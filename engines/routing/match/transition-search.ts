/**
 * Route distances of the HMM's transitions: ONE bounded one-to-many Dijkstra (metres, over the
 * edges the mode may use, one-ways, forbidden turns and the search's no-u-turn rule included)
 * from a state of fix t to every state of fix t+1. Labels live on directed edges as in search.ts;
 * targets enter the heap, so each is final when popped, and the search stops once every target
 * is final, past the distance limit, or past the point where no target could still gain from
 * this source (Viterbi pruning: a route of d metres scores at most score − max(0, d − gap)/beta).
 *
 * A target on the source's own edge ahead of it is reached directly; one behind it by at most
 * `backTolerance` metres along the way the vehicle came (on its edge or the edges leading into
 * it: GPS jitter of a slow vehicle, or along-road noise) is taken as a stay of that many metres,
 * flagged JITTER, instead of a loop around the block; its route distance is 0 (a stay).
 */
import type { CostModel } from '../cost-model.ts';
import { IncomingEdges } from '../incoming-edges.ts';
import { Moves } from '../moves.ts';
import type { RoadGraph } from '../road-graph.ts';
import { modeBit } from '../graph-format.ts';
import { SearchSpace, searchSpaceOf } from '../search-space.ts';
import { graphTurnRule } from '../turn-rule.ts';
import type { MatchState } from './candidates.ts';

/** targetPred values besides an edge: reached along the source's edge, or a backward jitter. */
export const DIRECT = -2;
export const JITTER = -3;
const UNREACHED = -1;

/** A chosen transition's path: directed edges in order, the first entered at startFraction, the last left at endFraction. */
export interface MatchPath {
  edges: number[];
  startFraction: number;
  endFraction: number;
  metres: number;
  seconds: number;
  /** A backward jitter on one edge: no movement is drawn or counted. */
  jitter: boolean;
}

export interface Pruning {
  /** The source's Viterbi score. */
  score: number;
  /** Best score found so far into each target (−Infinity: none); the search updates nothing here. */
  bestIn: Float64Array;
  /** Great-circle metres between the two fixes. */
  gap: number;
  beta: number;
}

const incomingByGraph = new WeakMap<RoadGraph, IncomingEdges>();
const allowedByGraph = new WeakMap<RoadGraph, Map<string, Uint8Array>>();

/**
 * The edges the model may use, one byte each, kept per graph and mode: matching uses each mode's
 * default cost options (costModel(graph, mode)), so the set is the same from request to request.
 */
function allowedEdges(model: CostModel): Uint8Array {
  let byMode = allowedByGraph.get(model.graph);
  if (!byMode) {
    byMode = new Map();
    allowedByGraph.set(model.graph, byMode);
  }
  let allowed = byMode.get(model.mode);
  if (!allowed) {
    allowed = new Uint8Array(model.graph.edgeCount);
    for (let e = 0; e < allowed.length; e++) allowed[e] = model.allowed(e) ? 1 : 0;
    byMode.set(model.mode, allowed);
  }
  return allowed;
}

function incomingOf(graph: RoadGraph): IncomingEdges {
  let incoming = incomingByGraph.get(graph);
  if (!incoming) {
    incoming = new IncomingEdges(graph);
    incomingByGraph.set(graph, incoming);
  }
  return incoming;
}

export class TransitionSearch {
  private readonly incoming: IncomingEdges;
  private readonly allowed: Uint8Array;
  private readonly bit: number;
  private readonly space: SearchSpace;
  private readonly behind: SearchSpace;
  private readonly moves: Moves;
  private readonly E: number;
  /** Route metres per target of the last run (Infinity: not reached). */
  distance = new Float64Array(16);
  private targetPred = new Int32Array(16);
  private settled = new Uint8Array(16);
  private targets: readonly MatchState[] = [];
  private source: MatchState | null = null;
  /** Edges expanded (settled) by this object's searches, forward and backward: the work done. */
  work = 0;

  constructor(private readonly model: CostModel) {
    this.space = searchSpaceOf(model.graph);
    this.behind = searchSpaceOf(model.graph, 'behind');
    this.moves = new Moves(model, graphTurnRule(model.graph, model.mode));
    this.E = model.graph.edgeCount;
    this.incoming = incomingOf(model.graph);
    this.allowed = allowedEdges(model);
    this.bit = modeBit(model.mode);
  }

  /**
   * Targets behind the source within `tolerance` metres along edges that lead into its edge (in
   * their direction, the turn into the next one allowed): each offered as a JITTER stay. A
   * backward Dijkstra with a settled set: each edge is expanded once, at its shortest way back,
   * so the work is bounded by the edges within `tolerance` (a plain walk of every way back grows
   * exponentially with it).
   */
  private offerBehind(source: MatchState, targets: readonly MatchState[], tolerance: number, isTarget: (edge: number) => boolean, offer: (j: number, d: number, before: number) => void): void {
    const a = this.model.graph.arrays;
    const { first, edges } = this.incoming;
    const { allowed, moves } = this;
    const behind = this.behind;
    const stamp = behind.begin();
    const { metres: back, seen, done, heap } = behind;
    const e0 = source.edge;
    if (allowed[e0] === 0) return;
    seen[e0] = stamp;
    back[e0] = source.fraction * a.edgeLength[e0]!;
    heap.push(back[e0]!, e0);
    while (heap.size > 0) {
      const edge = heap.pop();
      if (done[edge] === stamp) continue;
      done[edge] = stamp;
      this.work++;
      const b0 = back[edge]!;
      const node = this.model.graph.edgeSource(edge);
      for (let k = first[node]!; k < first[node + 1]!; k++) {
        const before = edges[k]!;
        // An edge the mode may not use leads nowhere: nothing may be entered from it.
        if (allowed[before] === 0 || !moves.turnAllowed(before, edge)) continue;
        const len = a.edgeLength[before]!;
        if (isTarget(before)) {
          for (let j = 0; j < targets.length; j++) {
            const t = targets[j]!;
            if (t.edge !== before) continue;
            const d = b0 + (1 - t.fraction) * len;
            if (d <= tolerance) offer(j, d, JITTER);
          }
        }
        const b = b0 + len;
        if (b >= tolerance || done[before] === stamp) continue;
        if (seen[before] !== stamp || b < back[before]!) {
          seen[before] = stamp;
          back[before] = b;
          heap.push(b, before);
        }
      }
    }
  }

  /** Runs the search from `source`; distance[j] holds the result for targets[j]. */
  run(source: MatchState, targets: readonly MatchState[], limit: number, backTolerance: number, pruning: Pruning | null): Float64Array {
    const n = targets.length;
    if (this.distance.length < n) {
      this.distance = new Float64Array(n);
      this.targetPred = new Int32Array(n);
      this.settled = new Uint8Array(n);
    }
    const { distance, targetPred, settled } = this;
    distance.fill(Infinity, 0, n);
    targetPred.fill(UNREACHED, 0, n);
    settled.fill(0, 0, n);
    this.targets = targets;
    this.source = source;
    const space = this.space;
    const stamp = space.begin();
    const { cost: metres, pred, seen, done, targetMark, heap } = space;
    const graph = this.model.graph;
    const a = graph.arrays;
    const { allowed, bit } = this;
    const E = this.E;
    for (let j = 0; j < n; j++) targetMark[targets[j]!.edge] = stamp;

    const offer = (j: number, d: number, before: number) => {
      if (d < distance[j]!) {
        distance[j] = d;
        targetPred[j] = before;
        heap.push(d, E + j);
      }
    };

    const e0 = source.edge;
    const len0 = a.edgeLength[e0]!;
    for (let j = 0; j < n; j++) {
      const t = targets[j]!;
      if (t.edge !== e0) continue;
      const span = (t.fraction - source.fraction) * len0;
      if (span >= 0) offer(j, span, DIRECT);
      else if (-span <= backTolerance) offer(j, -span, JITTER);
    }
    if (backTolerance > 0) this.offerBehind(source, targets, backTolerance, (edge) => targetMark[edge] === stamp, offer);
    seen[e0] = stamp;
    metres[e0] = (1 - source.fraction) * len0;
    pred[e0] = -1;
    heap.push(metres[e0]!, e0);

    let remaining = n;
    let stopAt = pruning ? this.stopDistance(pruning, n) : Infinity;
    while (heap.size > 0 && remaining > 0) {
      const key = heap.peekKey();
      if (key > limit || key > stopAt) break;
      const id = heap.pop();
      if (id >= E) {
        const j = id - E;
        if (settled[j] === 1) continue;
        settled[j] = 1;
        remaining--;
        if (pruning) stopAt = this.stopDistance(pruning, n);
        continue;
      }
      if (done[id] === stamp) continue;
      done[id] = stamp;
      this.work++;
      const d0 = metres[id]!;
      const v = a.edgeTarget[id]!;
      const back = a.edgeReverse[id]!;
      // Moves.allowed, inlined: the mode's edges, no u-turn but at a dead end, no forbidden turn.
      for (let e2 = a.firstEdge[v]!; e2 < a.firstEdge[v + 1]!; e2++) {
        if (allowed[e2] === 0) continue;
        if (e2 === back && !this.moves.deadEndAfter(id)) continue;
        if (graph.turnForbidden(id, e2, bit)) continue;
        const len = a.edgeLength[e2]!;
        if (targetMark[e2] === stamp) {
          for (let j = 0; j < n; j++) if (targets[j]!.edge === e2) offer(j, d0 + targets[j]!.fraction * len, id);
        }
        if (done[e2] === stamp) continue;
        const d = d0 + len;
        if (seen[e2] !== stamp || d < metres[e2]!) {
          seen[e2] = stamp;
          metres[e2] = d;
          pred[e2] = id;
          if (d <= limit) heap.push(d, e2);
        }
      }
    }
    // Offers not popped were not proven shortest: only settled targets count. A jitter is a stay:
    // 0 m for the HMM, so riding a road's other direction by backward "jitters" pays every hop.
    for (let j = 0; j < n; j++) {
      if (settled[j] === 0) distance[j] = Infinity;
      else if (targetPred[j] === JITTER) distance[j] = 0;
    }
    return distance;
  }

  /** Beyond this many metres no unsettled target can score better from this source than it already does. */
  private stopDistance(p: Pruning, n: number): number {
    let stop = -Infinity;
    for (let j = 0; j < n; j++) {
      if (this.settled[j] === 1) continue;
      const best = p.bestIn[j]!;
      if (best === -Infinity) return Infinity;
      if (p.score > best) stop = Math.max(stop, p.gap + p.beta * (p.score - best));
    }
    return stop;
  }

  /** The path of the last run to targets[j] (reached), with seconds from the cost model. */
  pathTo(j: number): MatchPath {
    const source = this.source!;
    const target = this.targets[j]!;
    const model = this.model;
    const before = this.targetPred[j]!;
    if (before === UNREACHED) throw new Error(`match: target ${j} was not reached`);
    const metres = this.distance[j]!;
    if (before === JITTER) return { edges: [source.edge], startFraction: source.fraction, endFraction: source.fraction, metres: 0, seconds: 0, jitter: true };
    if (before === DIRECT) {
      const seconds = (target.fraction - source.fraction) * model.seconds(source.edge);
      return { edges: [source.edge], startFraction: source.fraction, endFraction: target.fraction, metres, seconds, jitter: false };
    }
    const edges = [target.edge];
    for (let e = before; e >= 0; e = this.space.pred[e]!) edges.push(e);
    edges.reverse();
    let seconds = (1 - source.fraction) * model.seconds(edges[0]!) + target.fraction * model.seconds(target.edge);
    for (let k = 1; k < edges.length - 1; k++) seconds += model.seconds(edges[k]!);
    return { edges, startFraction: source.fraction, endFraction: target.fraction, metres, seconds, jitter: false };
  }
}
