/**
 * A contraction-hierarchy path priced by the caller's cost model, and whether it is the model's
 * optimum. The hierarchy's metric is a lower bound of every motor model's costs up to the
 * model's minCostFactor (contraction/metric.ts), so any path's model cost is at least
 * minCostFactor × its CH distance ≥ minCostFactor × bound: a CH path that is legal for the model
 * (every edge allowed, every turn allowed, no u-turn but at a dead end) and whose model cost
 * reaches that floor is optimal. Otherwise the caller searches with CH-potentials.
 */
import type { ChRoute } from './contraction/query.ts';
import type { CostModel } from './cost-model.ts';
import { Moves, type TurnRule } from './moves.ts';
import type { RouteResult } from './search.ts';

/** Relative slack for the order of floating-point additions (CH sums versus edge-by-edge sums). */
export const CH_TOLERANCE = 1e-9;

/**
 * The path without a first edge it starts at the end of (start fraction 1) or a last edge it ends
 * at the start of (end fraction 0): such an edge adds no travel, and the "turn" onto or off it is
 * none (a CH path ending at a node often does so over the reverse of the edge it arrived by,
 * which as a turn would be a u-turn and send the cell to the potential search for nothing).
 */
export function withoutZeroLengthEnds(path: ChRoute): ChRoute {
  let { edges, startFraction, endFraction } = path;
  if (edges.length > 1 && endFraction === 0) {
    edges = edges.subarray(0, edges.length - 1);
    endFraction = 1;
  }
  if (edges.length > 1 && startFraction === 1) {
    edges = edges.subarray(1);
    startFraction = 0;
  }
  return edges === path.edges ? path : { bound: path.bound, edges, startFraction, endFraction };
}

/** The path as the model's route, or null when the model may not take it as it is. */
export function priceChPath(model: CostModel, path: ChRoute, turnRule: TurnRule | undefined): RouteResult | null {
  const a = model.graph.arrays;
  const moves = new Moves(model, turnRule);
  const edges = path.edges;
  const last = edges.length - 1;
  let cost = 0;
  let seconds = 0;
  let metres = 0;
  const sameCost = model.costIsSeconds;
  for (let i = 0; i <= last; i++) {
    const e = edges[i]!;
    // Each edge's own allowed() is checked in its turn, so the turn to it checks the rules only.
    if (!model.allowed(e) || (i < last && !moves.turnAllowed(e, edges[i + 1]!))) return null;
    const from = i === 0 ? path.startFraction : 0;
    const to = i === last ? path.endFraction : 1;
    const share = to - from;
    const s = model.seconds(e);
    cost += share * (sameCost ? s : model.cost(e));
    seconds += share * s;
    metres += share * a.edgeLength[e]!;
  }
  return { cost, seconds, metres, edges, startFraction: path.startFraction, endFraction: path.endFraction };
}

/** Whether a model cost reaches the floor the hierarchy's bound sets (so nothing can be cheaper). */
export function reachesFloor(model: CostModel, cost: number, bound: number): boolean {
  return cost <= bound * model.minCostFactor * (1 + CH_TOLERANCE) + CH_TOLERANCE;
}

/** CH-potentials scaled to the model: a consistent lower bound of its remaining cost. */
export function potentialScale(model: CostModel): number {
  return model.minCostFactor * (1 - CH_TOLERANCE);
}
