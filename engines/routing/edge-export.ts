/**
 * The road graph as CSV for other routing tools (pgRouting, networkx, …): one row per directed
 * edge with its cost for each mode, and one row per forbidden turn. Produced line by line
 * (generators, no trailing newline) so a caller streams them wherever it likes.
 *
 * Costs are the engine's own: costModel(graph, mode) with default preferences (the truck with
 * its default dimensions), in seconds, or -1 when the mode may not use the edge — pgRouting
 * treats a negative cost as no edge. Numbers are written in full precision (the shortest text
 * that reads back as the same double), so a tool summing them gets the engine's sums.
 */
import { costModel } from './cost-model.ts';
import { NO_EDGE, modeBit } from './graph-format.ts';
import { MODES } from './modes.ts';
import type { RoadGraph } from './road-graph.ts';

export const EDGE_CSV_HEADER = `id,source,target,reverse,length_m,${MODES.map((m) => `cost_${m}`).join(',')}`;
export const TURN_CSV_HEADER = 'in_edge,out_edge,modes';

/** Not allowed to the mode. */
export const NO_COST = -1;

/** The header, then one line per directed edge in id order. */
export function* edgeCsvLines(graph: RoadGraph): Generator<string> {
  const a = graph.arrays;
  const models = MODES.map((mode) => costModel(graph, mode));
  yield EDGE_CSV_HEADER;
  for (let node = 0; node < graph.nodeCount; node++) {
    for (let e = a.firstEdge[node]!; e < a.firstEdge[node + 1]!; e++) {
      const reverse = a.edgeReverse[e]!;
      const costs = models.map((m) => (m.allowed(e) ? m.cost(e) : NO_COST));
      yield `${e},${node},${a.edgeTarget[e]!},${reverse === NO_EDGE ? -1 : reverse},${a.edgeLength[e]!},${costs.join(',')}`;
    }
  }
}

/** The header, then one line per forbidden (in edge, out edge) pair: the modes it binds joined by '|'. */
export function* turnCsvLines(graph: RoadGraph): Generator<string> {
  const { turnInEdge, turnOutEdge, turnModes } = graph.arrays;
  yield TURN_CSV_HEADER;
  for (let i = 0; i < turnInEdge.length; i++) {
    const modes = MODES.filter((m) => (turnModes[i]! & modeBit(m)) !== 0);
    yield `${turnInEdge[i]!},${turnOutEdge[i]!},${modes.join('|')}`;
  }
}
