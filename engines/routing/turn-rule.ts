import type { Mode } from './modes.ts';
import { modeBit } from './graph-format.ts';
import type { RoadGraph } from './road-graph.ts';
import type { TurnRule } from './search.ts';

const boundAt = new WeakMap<TurnRule, Uint32Array>();

/** The graph's turn restrictions as the search's rule for one mode (pedestrians are never bound). */
export function graphTurnRule(graph: RoadGraph, mode: Mode): TurnRule {
  const bit = modeBit(mode);
  const rule: TurnRule = (inEdge, outEdge) => graph.turnForbidden(inEdge, outEdge, bit);
  boundAt.set(rule, graph.restrictedNodes(bit));
  return rule;
}

/** For a rule from graphTurnRule, the nodes where it can forbid a turn (a bitset); undefined for any other rule. */
export function turnRuleNodes(rule: TurnRule): Uint32Array | undefined {
  return boundAt.get(rule);
}
