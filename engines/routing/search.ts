/**
 * Edge-based shortest paths: labels live on directed edges (cost on reaching the edge's end), so
 * turn rules between an incoming and an outgoing edge are exact. U-turns onto the reverse of the
 * edge just travelled are forbidden except at dead ends (no other edge the mode may take).
 *
 * Origins and destinations are positions on edges (endpoints.ts): an origin edge is labelled
 * with the part after the start fraction, and a destination on edge g at fraction h is reached
 * from a label on an edge into g's source (plus h of g), or directly when the origin lies on g
 * before h. Destinations go into the heap like edges, so each is final when popped.
 */
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { CostModel } from './cost-model.ts';
import type { Endpoint } from './endpoints.ts';
import { fromMicroDegrees } from './graph-format.ts';
import { Moves, type TurnRule } from './moves.ts';
import { searchSpaceOf } from './search-space.ts';

export type { TurnRule } from './moves.ts';

export interface RouteResult {
  cost: number;
  seconds: number;
  metres: number;
  /** Directed edges in travel order; the first is entered at startFraction, the last left at endFraction. */
  edges: Uint32Array;
  startFraction: number;
  endFraction: number;
}

export interface RoadSearchOptions {
  turnRule?: TurnRule;
  /** A* towards this [lng, lat] (degrees): one-to-one only. */
  aStarTarget?: [number, number];
  /**
   * A* with this lower bound of the cost from an edge's end to the (single) destination, instead of
   * the straight-line one; it must be consistent (CH-potentials scaled by the model's minCostFactor are).
   */
  potential?: (edge: number) => number;
  /** searchMany: destinations costing more are unreachable, and nothing beyond it is explored. */
  maxCost?: number;
}

const DIRECT = -2;

interface Targets {
  /** Flattened alternatives: group (destination index), edge, fraction. */
  group: Int32Array;
  edge: Uint32Array;
  fraction: Float64Array;
  /** Best arrival per alternative. */
  cost: Float64Array;
  seconds: Float64Array;
  metres: Float64Array;
  /** Edge before the destination edge, or DIRECT (origin on the same edge, from startFraction). */
  pred: Int32Array;
  startFraction: Float64Array;
  /** Alternatives by edge. */
  byEdge: Map<number, number[]>;
}

function makeTargets(destinations: readonly Endpoint[]): Targets {
  const n = destinations.reduce((s, d) => s + d.length, 0);
  const t: Targets = {
    group: new Int32Array(n), edge: new Uint32Array(n), fraction: new Float64Array(n),
    cost: new Float64Array(n).fill(Infinity), seconds: new Float64Array(n), metres: new Float64Array(n),
    pred: new Int32Array(n), startFraction: new Float64Array(n), byEdge: new Map(),
  };
  let k = 0;
  destinations.forEach((d, g) => {
    for (const p of d) {
      t.group[k] = g;
      t.edge[k] = p.edge;
      t.fraction[k] = p.fraction;
      const list = t.byEdge.get(p.edge);
      if (list) list.push(k);
      else t.byEdge.set(p.edge, [k]);
      k++;
    }
  });
  return t;
}

/** One search from `origin`; returns the best route to each destination (null when unreachable). */
export function searchMany(
  model: CostModel, origin: Endpoint, destinations: readonly Endpoint[], options: RoadSearchOptions = {},
): (RouteResult | null)[] {
  const graph = model.graph;
  const a = graph.arrays;
  const E = graph.edgeCount;
  const space = searchSpaceOf(graph);
  const stamp = space.begin();
  const { cost, seconds, metres, pred, seen, done, targetMark, heap } = space;
  const t = makeTargets(destinations);
  for (const e of t.byEdge.keys()) targetMark[e] = stamp;
  const moves = new Moves(model, options.turnRule);

  const aim = options.aStarTarget;
  const k = model.minCostPerMetre;
  const h = options.potential ?? (aim
    ? (edge: number) => {
      const node = a.edgeTarget[edge]!;
      return k * haversineMetres(fromMicroDegrees(a.nodeLng[node]!), fromMicroDegrees(a.nodeLat[node]!), aim[0], aim[1]);
    }
    : () => 0);

  const maxCost = options.maxCost ?? Infinity;
  const offerTarget = (alt: number, c: number, s: number, m: number, before: number, from = 0) => {
    if (c < t.cost[alt]! && c <= maxCost) {
      t.startFraction[alt] = from;
      t.cost[alt] = c;
      t.seconds[alt] = s;
      t.metres[alt] = m;
      t.pred[alt] = before;
      heap.push(c, E + alt);
    }
  };

  const seedFraction = new Map<number, number>();
  for (const p of origin) {
    const e = p.edge;
    const rest = 1 - p.fraction;
    const c = rest * model.cost(e);
    if (seen[e] !== stamp || c < cost[e]!) {
      seen[e] = stamp;
      cost[e] = c;
      seconds[e] = rest * model.seconds(e);
      metres[e] = rest * a.edgeLength[e]!;
      pred[e] = -1;
      seedFraction.set(e, p.fraction);
      const key = c + h(e);
      if (key < Infinity) heap.push(key, e);
    }
    for (const alt of t.byEdge.get(e) ?? []) {
      const span = t.fraction[alt]! - p.fraction;
      if (span >= 0) offerTarget(alt, span * model.cost(e), span * model.seconds(e), span * a.edgeLength[e]!, DIRECT, p.fraction);
    }
  }

  const groups = destinations.length;
  const found = new Int32Array(groups).fill(-1);
  let remaining = groups;
  for (let g = 0; g < groups; g++) if (destinations[g]!.length === 0) remaining--;

  while (heap.size > 0 && remaining > 0) {
    const id = heap.pop();
    if (id >= E) {
      const alt = id - E;
      const g = t.group[alt]!;
      if (found[g] === -1) {
        found[g] = alt;
        remaining--;
      }
      continue;
    }
    if (done[id] === stamp) continue;
    done[id] = stamp;
    expand(id);
  }

  function expand(edge: number): void {
    const v = a.edgeTarget[edge]!;
    const c0 = cost[edge]!;
    for (let e2 = a.firstEdge[v]!; e2 < a.firstEdge[v + 1]!; e2++) {
      if (!moves.allowed(edge, e2)) continue;
      const c2 = model.cost(e2);
      if (targetMark[e2] === stamp) {
        const s2 = model.seconds(e2);
        for (const alt of t.byEdge.get(e2)!) {
          const f = t.fraction[alt]!;
          offerTarget(alt, c0 + f * c2, seconds[edge]! + f * s2, metres[edge]! + f * a.edgeLength[e2]!, edge);
        }
      }
      if (done[e2] === stamp) continue;
      const c = c0 + c2;
      if (seen[e2] !== stamp || c < cost[e2]!) {
        seen[e2] = stamp;
        cost[e2] = c;
        seconds[e2] = seconds[edge]! + model.seconds(e2);
        metres[e2] = metres[edge]! + a.edgeLength[e2]!;
        pred[e2] = edge;
        const key = c + h(e2);
        // An infinite bound: no way on to the destination from this edge's end.
        if (key < Infinity && c <= maxCost) heap.push(key, e2);
      }
    }
  }

  return Array.from(found, (alt) => {
    if (alt === -1) return null;
    const edges: number[] = [t.edge[alt]!];
    for (let e = t.pred[alt]!; e >= 0; e = pred[e]!) edges.push(e);
    edges.reverse();
    const startFraction = t.pred[alt] === DIRECT ? t.startFraction[alt]! : seedFraction.get(edges[0]!)!;
    return {
      cost: t.cost[alt]!, seconds: t.seconds[alt]!, metres: t.metres[alt]!,
      edges: Uint32Array.from(edges), startFraction, endFraction: t.fraction[alt]!,
    };
  });
}

/** One-to-one: A* towards `targetLngLat` (the destination point in degrees) when given. */
export function searchRoute(
  model: CostModel, origin: Endpoint, destination: Endpoint, options: { turnRule?: TurnRule; targetLngLat?: [number, number] } = {},
): RouteResult | null {
  const opts: RoadSearchOptions = { turnRule: options.turnRule };
  if (options.targetLngLat) opts.aStarTarget = options.targetLngLat;
  return searchMany(model, origin, [destination], opts)[0]!;
}
