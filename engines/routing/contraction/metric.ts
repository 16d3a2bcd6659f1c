/**
 * The lower-bound motor metric the hierarchy is built on: a directed edge belongs to it when auto
 * or truck may use it (access bit, and a speed above zero unless it is a ferry — cost-model's
 * `allowed` without the truck's dimension limits), and weighs the least of those modes' seconds.
 *
 * Weights are Float64, the cost model's own seconds, and shortcut weights are Float64 sums of
 * them, so a CH distance equals the Float64 sum of the path's cost-model seconds up to rounding
 * of the order of additions (relative ~1e-15 per edge). (Float32 storage was tried: rounding each
 * shortcut drifted by 3e-7 relative on 400k-node graphs and grows with the hierarchy's depth.)
 */
import { costModel } from '../cost-model.ts';
import { EDGE_FLAG, modeBit, type GraphArrays } from '../graph-format.ts';
import type { Mode } from '../modes.ts';
import type { RoadGraph } from '../road-graph.ts';

export const MOTOR_MODES: readonly Mode[] = ['auto', 'truck'];

/** Whether `mode` may travel the edge, ignoring truck dimension limits. */
export function motorUsable(a: GraphArrays, edge: number, mode: Mode): boolean {
  if ((a.edgeAccess[edge]! & modeBit(mode)) === 0) return false;
  if ((a.edgeFlags[edge]! & EDGE_FLAG.ferry) !== 0) return true;
  return (mode === 'truck' ? a.edgeSpeedTruck[edge]! : a.edgeSpeedAuto[edge]!) > 0;
}

/** Per directed edge: the metric's weight, Infinity when no motor mode may use it (or its time is not finite). */
export function motorLowerBound(graph: RoadGraph): Float64Array {
  const a = graph.arrays;
  const models = MOTOR_MODES.map((mode) => costModel(graph, mode));
  const out = new Float64Array(graph.edgeCount);
  for (let e = 0; e < graph.edgeCount; e++) {
    let best = Infinity;
    for (const model of models) {
      if (!motorUsable(a, e, model.mode)) continue;
      const s = model.seconds(e);
      if (s < best) best = s;
    }
    out[e] = Number.isFinite(best) && best >= 0 ? best : Infinity;
  }
  return out;
}
