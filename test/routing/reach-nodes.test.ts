/**
 * reachWithin's node-label search (cost is seconds, the graph's turn rule) against its edge-based
 * search on a synthetic graph with turn restrictions (its city grids forbid left turns at arterial
 * crossings), spurs and one-way roads: every entered edge with the same entry, arrival and source,
 * bit for bit, from nodes, from points along edges and from just before restricted turns.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticRoadGraph } from '../support/routing/synthetic-graph.ts';
import { costModel, type CostModel } from '../../engines/routing/cost-model.ts';
import { endpointOnEdge, originAtNode, type Endpoint } from '../../engines/routing/endpoints.ts';
import { modeBit } from '../../engines/routing/graph-format.ts';
import { reachWithin, type Reach } from '../../engines/routing/reach.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { graphTurnRule, turnRuleNodes } from '../../engines/routing/turn-rule.ts';
import {  } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

let graph: RoadGraph;
beforeAll(() => {
  graph = new RoadGraph(syntheticRoadGraph({ nodes: 50_000, seed: 3 }));
});

const byEdge = (r: Reach) => new Map(Array.from(r.edges, (e, i) => [e, [r.entry[i], r.arrival[i], r.source[i]]]));

describe('reachWithin by node labels', () => {
  it('knows the nodes where a restriction binds the mode', () => {
    const a = graph.arrays;
    const nodes = turnRuleNodes(graphTurnRule(graph, 'auto'))!;
    const bound = (n: number) => (nodes[n >>> 5]! & (1 << (n & 31))) !== 0;
    const vias = new Set(Array.from(a.turnInEdge).filter((_, i) => (a.turnModes[i]! & modeBit('auto')) !== 0).map((e) => a.edgeTarget[e]!));
    expect(vias.size).toBeGreaterThan(10);
    for (let n = 0; n < graph.nodeCount; n++) expect(bound(n)).toBe(vias.has(n));
    expect(turnRuleNodes(() => false)).toBeUndefined();
  });

  it('enters the edges the edge-based search enters, at the same seconds, with and without the turn rule', () => {
    const a = graph.arrays;
    const next = random(23);
    for (const mode of ['auto', 'truck'] as const) {
      const model = costModel(graph, mode);
      expect(model.costIsSeconds).toBe(true);
      const edgeBased: CostModel = Object.assign(Object.create(model) as CostModel, { costIsSeconds: false });
      const rule = graphTurnRule(graph, mode);
      const pick = () => Math.floor(next() * graph.edgeCount);
      const beforeTurn = () => a.turnInEdge[Math.floor(next() * a.turnInEdge.length)]!;
      const origins: Endpoint[] = [
        ...Array.from({ length: 4 }, () => originAtNode(model, graph.edgeSource(pick()))),
        ...Array.from({ length: 4 }, () => endpointOnEdge(model, pick(), next())),
        ...Array.from({ length: 6 }, () => endpointOnEdge(model, beforeTurn(), 0.5)),
      ].filter((o) => o.length > 0);
      expect(origins.length).toBeGreaterThan(8);
      for (const origin of origins) {
        for (const turnRule of [rule, undefined]) {
          const nodes = reachWithin(model, origin, 600, turnRule);
          const edges = reachWithin(edgeBased, origin, 600, turnRule);
          expect(byEdge(nodes)).toEqual(byEdge(edges));
          const index = new Map(Array.from(nodes.edges, (e, i) => [e, i]));
          expect(Array.from(nodes.reverse)).toEqual(Array.from(nodes.edges, (e) => index.get(a.edgeReverse[e]!) ?? -1));
        }
      }
    }
  });
});
