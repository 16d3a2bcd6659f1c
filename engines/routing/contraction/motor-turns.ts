/**
 * Which turns the hierarchy offers where it tells arrivals apart (region.ts): a turn e → e2 at
 * e's target when some motor request may take it —
 *   ∃ mode m ∈ {auto, truck}: m may use e and e2, no restriction forbids e → e2 to m, and e2 is not
 *   the way back (the reverse of e) unless e's target may be a dead end for some request of m.
 * "May be a dead end" counts only the exits every request of the mode can take (not ferries,
 * which an isochrone may exclude; for trucks, no dimension, weight or hazmat limit), so every
 * turn and u-turn any motor request may make is offered, and the hierarchy's distances stay
 * lower bounds of every motor request's costs.
 */
import { EDGE_FLAG, modeBit, type GraphArrays } from '../graph-format.ts';
import type { RoadGraph } from '../road-graph.ts';
import { MOTOR_MODES, motorUsable } from './metric.ts';

const MOTOR_BITS = MOTOR_MODES.map(modeBit);

const truckLimited = (a: GraphArrays, e: number) =>
  a.edgeMaxHeight[e] !== 0 || a.edgeMaxWidth[e] !== 0 || a.edgeMaxLength[e] !== 0 || a.edgeMaxWeight[e] !== 0
  || a.edgeMaxAxleLoad[e] !== 0 || (a.edgeFlags[e]! & EDGE_FLAG.hazmatForbidden) !== 0;

/** An exit every request of MOTOR_MODES[m] may take. */
function surelyOpen(a: GraphArrays, e: number, m: number): boolean {
  if ((a.edgeFlags[e]! & EDGE_FLAG.ferry) !== 0 || !motorUsable(a, e, MOTOR_MODES[m]!)) return false;
  return MOTOR_MODES[m] === 'auto' || !truckLimited(a, e);
}

/** Whether arriving over `e`, node target(e) offers MOTOR_MODES[m] no exit but the way back that every request of m may take. */
function mayBeDeadEnd(a: GraphArrays, e: number, m: number): boolean {
  const v = a.edgeTarget[e]!;
  const back = a.edgeReverse[e]!;
  for (let o = a.firstEdge[v]!; o < a.firstEdge[v + 1]!; o++) if (o !== back && surelyOpen(a, o, m)) return false;
  return true;
}

/** Whether some motor request may turn from `e` onto `e2` (an edge out of e's target). */
export function motorTurnAllowed(graph: RoadGraph, e: number, e2: number): boolean {
  const a = graph.arrays;
  for (let m = 0; m < MOTOR_MODES.length; m++) {
    const mode = MOTOR_MODES[m]!;
    if (!motorUsable(a, e, mode) || !motorUsable(a, e2, mode) || graph.turnForbidden(e, e2, MOTOR_BITS[m]!)) continue;
    if (e2 !== a.edgeReverse[e] || mayBeDeadEnd(a, e, m)) return true;
  }
  return false;
}
