import type { Mode } from './modes.ts';
import { modeBit } from './graph-format.ts';
import type { RoadGraph } from './road-graph.ts';
import type { TurnRule } from './search.ts';

/** The graph's turn restrictions as the search's rule for one mode (pedestrians are never bound). */
export function graphTurnRule(graph: RoadGraph, mode: Mode): TurnRule {
  const bit = modeBit(mode);
  return (inEdge, outEdge) => graph.turnForbidden(inEdge, outEdge, bit);
}
