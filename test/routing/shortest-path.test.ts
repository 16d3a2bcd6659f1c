import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priceChPath, reachesFloor, withoutZeroLengthEnds } from '../../engines/routing/checked-ch-path.ts';
import { buildContractionHierarchy } from '../../engines/routing/contraction/build.ts';
import { chRoute } from '../../engines/routing/contraction/query.ts';
import type { ContractionHierarchy } from '../../engines/routing/contraction/hierarchy.ts';
import { costModel, type CostOptions } from '../../engines/routing/cost-model.ts';
import { endpointOnEdge, type Endpoint } from '../../engines/routing/endpoints.ts';
import { modeBit } from '../../engines/routing/graph-format.ts';
import type { Mode } from '../../engines/routing/modes.ts';
import { pointAtFraction } from '../../engines/routing/route-geometry.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { shortestPath, shortestPathTable } from '../../engines/routing/shortest-path.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { applyTurnRestrictions, readTurnRestrictions } from '../../ingest/roads/restriction-build.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { sharedData } from '../support/paths.ts';
import { median, openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

// The facade (CH when provably optimal, else A* with CH-potentials) against plain A*, on the
// Vancouver graph with its real turn restrictions.
let vancouver: VancouverGraph;
let graph: RoadGraph;
let hierarchy: ContractionHierarchy;

beforeAll(async () => {
  vancouver = await openVancouverGraph();
  const relations = await readTurnRestrictions(sharedData('osm/pelias-vancouver_canada.osm.pbf'));
  graph = new RoadGraph(applyTurnRestrictions(vancouver.build, relations.restrictions).arrays);
  hierarchy = buildContractionHierarchy(graph).hierarchy;
}, 120_000);

afterAll(async () => {
  await vancouver?.close();
});

function randomEndpoints(mode: Mode, options: CostOptions, count: number, seed: number): Endpoint[] {
  const model = costModel(graph, mode, options);
  const next = random(seed);
  const out: Endpoint[] = [];
  while (out.length < count) {
    const e = Math.floor(next() * graph.edgeCount);
    const endpoint = endpointOnEdge(model, e, Math.round(next() * 100) / 100);
    if (endpoint.length > 0) out.push(endpoint);
  }
  return out;
}

const PROFILES: [string, Mode, CostOptions][] = [
  ['auto, defaults', 'auto', {}],
  ['auto, use_highways=1', 'auto', { useHighways: 1 }],
  ['auto, avoid tolls and ferries, use_highways=0.2', 'auto', { avoidTolls: true, avoidFerries: true, useHighways: 0.2 }],
  ['truck, defaults', 'truck', {}],
  ['truck, 4.5 m, hazmat, use_truck_route=1', 'truck', { truck: { height: 4.5, hazmat: true, useTruckRoute: 1 } }],
];

describe('shortest paths through the contraction hierarchy equal plain A*', () => {
  it.each(PROFILES)('%s: 150 random pairs, same cost, seconds and metres, same reachability', (_name, mode, options) => {
    const model = costModel(graph, mode, options);
    const turnRule = graphTurnRule(graph, mode);
    const ends = randomEndpoints(mode, options, 300, mode.length * 7919 + JSON.stringify(options).length);
    const fast: number[] = [];
    const plain: number[] = [];
    let reachable = 0;
    for (let k = 0; k < 150; k++) {
      const origin = ends[2 * k]!;
      const destination = ends[2 * k + 1]!;
      const target = pointAtFraction(graph, destination[0]!.edge, destination[0]!.fraction);
      let t = performance.now();
      const ours = shortestPath(model, hierarchy, origin, destination, target);
      fast.push(performance.now() - t);
      t = performance.now();
      const reference = searchRoute(model, origin, destination, { turnRule });
      plain.push(performance.now() - t);
      expect(ours === null).toBe(reference === null);
      if (!ours || !reference) continue;
      reachable++;
      expect(ours.cost).toBeCloseTo(reference.cost, 6);
      expect(ours.seconds).toBeCloseTo(reference.seconds, 3);
      for (let i = 0; i + 1 < ours.edges.length; i++) expect(turnRule(ours.edges[i]!, ours.edges[i + 1]!)).toBe(false);
      expect(Array.from(ours.edges).every((e) => model.allowed(e))).toBe(true);
    }
    expect(reachable).toBeGreaterThan(120);
    console.log(`${_name}: median ${median(fast).toFixed(2)} ms with the hierarchy, ${median(plain).toFixed(2)} ms Dijkstra`);
  });

  it('takes the hierarchy\'s own path past the real turn restrictions: the way round, not the banned turn', () => {
    const model = costModel(graph, 'auto');
    const turnRule = graphTurnRule(graph, 'auto');
    const both = modeBit('auto') | modeBit('truck');
    const { turnInEdge, turnOutEdge, turnModes } = graph.arrays;
    let pairs = 0;
    let legal = 0;
    for (let r = 0; r < turnInEdge.length; r++) {
      const [e, e2] = [turnInEdge[r]!, turnOutEdge[r]!];
      if ((turnModes[r]! & both) !== both || !model.allowed(e) || !model.allowed(e2)) continue;
      // From the middle of the banned turn's in-edge to the middle of its out-edge.
      const origin = [{ edge: e, fraction: 0.5 }];
      const destination = [{ edge: e2, fraction: 0.5 }];
      const reference = searchRoute(model, origin, destination, { turnRule });
      const path = chRoute(hierarchy, graph, origin, destination);
      expect(path === null).toBe(reference === null);
      if (!path || !reference) continue;
      pairs++;
      const priced = priceChPath(model, path, turnRule);
      if (priced && reachesFloor(model, priced.cost, path.bound)) legal++;
      expect(path.bound).toBeLessThanOrEqual(reference.cost * (1 + 1e-9));
      expect(shortestPath(model, hierarchy, origin, destination, pointAtFraction(graph, e2, 0.5))!.cost).toBeCloseTo(reference.cost, 6);
    }
    console.log(`banned turns: ${legal} of ${pairs} trips across them answered by the hierarchy's path alone`);
    expect(pairs).toBeGreaterThan(100);
    expect(legal / pairs).toBeGreaterThan(0.95);
  });

  it('answers a table as the pairs one by one', () => {
    const model = costModel(graph, 'auto', { avoidTolls: true });
    const ends = randomEndpoints('auto', {}, 14, 99);
    const origins = ends.slice(0, 7);
    const destinations = ends.slice(7);
    const table = shortestPathTable(model, hierarchy, origins, destinations);
    const alone = shortestPathTable(model, null, origins, destinations);
    table.forEach((row, i) => row.forEach((r, j) => {
      expect(r?.cost ?? null).toBeCloseTo(alone[i]![j]?.cost ?? Number.NaN, 6);
      expect(r?.metres).toBeCloseTo(alone[i]![j]!.metres, 2);
    }));
  });

  it('answers ends at graph nodes with the hierarchy\'s path: a zero-length first or last edge is no u-turn', () => {
    const model = costModel(graph, 'auto');
    const turnRule = graphTurnRule(graph, 'auto');
    const next = random(7);
    const atNode = (fraction: number): Endpoint => {
      for (;;) {
        const endpoint = endpointOnEdge(model, Math.floor(next() * graph.edgeCount), fraction);
        if (endpoint.length === 2) return endpoint;
      }
    };
    let pairs = 0;
    let trimmed = 0;
    let proven = 0;
    const origins: Endpoint[] = [];
    const destinations: Endpoint[] = [];
    for (let k = 0; k < 150; k++) {
      const origin = atNode(next() < 0.5 ? 0 : 1);
      const destination = atNode(next() < 0.5 ? 0 : 1);
      if (k < 8) origins.push(origin);
      else if (k < 16) destinations.push(destination);
      const reference = searchRoute(model, origin, destination, { turnRule });
      const path = chRoute(hierarchy, graph, origin, destination);
      expect(path === null).toBe(reference === null);
      if (!path || !reference) continue;
      pairs++;
      const trim = withoutZeroLengthEnds(path);
      if (trim !== path) trimmed++;
      const priced = priceChPath(model, trim, turnRule);
      if (priced && reachesFloor(model, priced.cost, path.bound)) proven++;
      const ours = shortestPath(model, hierarchy, origin, destination, pointAtFraction(graph, destination[0]!.edge, destination[0]!.fraction))!;
      expect(ours.cost).toBeCloseTo(reference.cost, 6);
      expect(ours.metres).toBeCloseTo(reference.metres, 2);
      for (let i = 0; i + 1 < ours.edges.length; i++) expect(turnRule(ours.edges[i]!, ours.edges[i + 1]!)).toBe(false);
    }
    console.log(`ends at nodes: ${trimmed} of ${pairs} hierarchy paths trimmed, ${proven} answered by the hierarchy's path alone`);
    expect(trimmed).toBeGreaterThan(pairs / 4);
    expect(proven / pairs).toBeGreaterThan(0.95);
    const table = shortestPathTable(model, hierarchy, origins, destinations);
    const alone = shortestPathTable(model, null, origins, destinations);
    table.forEach((row, i) => row.forEach((r, j) => {
      const reference = alone[i]![j]!;
      expect(r === null).toBe(reference === null);
      if (r === null) return;
      expect(r.cost).toBeCloseTo(reference.cost, 6);
      expect(r.metres).toBeCloseTo(reference.metres, 2);
    }));
  });

  it('trims only a zero-length first or last edge, never the only one', () => {
    const edges = Uint32Array.from([4, 5, 6]);
    expect(withoutZeroLengthEnds({ bound: 9, edges, startFraction: 0.5, endFraction: 0.5 }).edges).toBe(edges);
    expect(withoutZeroLengthEnds({ bound: 9, edges, startFraction: 1, endFraction: 0 })).toEqual({ bound: 9, edges: Uint32Array.from([5]), startFraction: 0, endFraction: 1 });
    expect(withoutZeroLengthEnds({ bound: 9, edges, startFraction: 0, endFraction: 0 })).toEqual({ bound: 9, edges: Uint32Array.from([4, 5]), startFraction: 0, endFraction: 1 });
    const one = { bound: 0, edges: Uint32Array.from([4]), startFraction: 1, endFraction: 0 };
    expect(withoutZeroLengthEnds(one)).toBe(one);
  });
});
