import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel, type CostModel } from '../../engines/routing/cost-model.ts';
import { destinationAtNode, endpointOnEdge, originAtNode } from '../../engines/routing/endpoints.ts';
import { MODES } from '../../engines/routing/modes.ts';
import { arrivalByEdge, reachWithin } from '../../engines/routing/reach.ts';
import { pointAtFraction, routeGeometry } from '../../engines/routing/route-geometry.ts';
import { searchMany, searchRoute, type RouteResult } from '../../engines/routing/search.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { edgesOfWay } from '../../ingest/roads/graph-build.ts';
import { referenceNodeCosts } from './reference-dijkstra.ts';
import { median, openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

let v: VancouverGraph;
beforeAll(async () => {
  v = await openVancouverGraph();
}, 300_000);
afterAll(() => v?.close());

const SOURCES = 20;
const TARGETS_PER_SOURCE = 10;

/** Nodes with a usable edge out, picked at random. */
function pickNodes(model: CostModel, count: number, rnd: () => number): number[] {
  const g = model.graph;
  const out: number[] = [];
  while (out.length < count) {
    const n = Math.floor(rnd() * g.nodeCount);
    const { start, end } = g.edgesOf(n);
    for (let e = start; e < end; e++) {
      if (model.allowed(e)) {
        out.push(n);
        break;
      }
    }
  }
  return out;
}

const sumOf = (edges: Uint32Array, f: (e: number) => number) => edges.reduce((s, e) => s + f(e), 0);

describe('edge-based A* on the Vancouver graph', () => {
  for (const mode of MODES) {
    it(`equals a plain reference Dijkstra for ${SOURCES * TARGETS_PER_SOURCE} random ${mode} node pairs`, () => {
      const model = costModel(v.graph, mode);
      const rnd = random(1000 + MODES.indexOf(mode));
      const times: number[] = [];
      let reachable = 0;
      for (const source of pickNodes(model, SOURCES, rnd)) {
        const reference = referenceNodeCosts(model, source);
        const targets = pickNodes(model, TARGETS_PER_SOURCE, rnd).filter((t) => t !== source);
        const destinations = targets.map((t) => destinationAtNode(model, t));
        const many = searchMany(model, originAtNode(model, source), destinations);
        targets.forEach((target, i) => {
          const t0 = performance.now();
          const route = searchRoute(model, originAtNode(model, source), destinations[i]!, { targetLngLat: v.graph.nodeLngLat(target) });
          times.push(performance.now() - t0);
          const want = reference[target]!;
          if (!Number.isFinite(want)) {
            expect(route, `${mode} ${source}→${target} unreachable`).toBeNull();
            expect(many[i]).toBeNull();
            return;
          }
          reachable++;
          expect(route, `${mode} ${source}→${target}`).not.toBeNull();
          expect(Math.abs(route!.cost - want)).toBeLessThanOrEqual(1e-6);
          expect(Math.abs(many[i]!.cost - want)).toBeLessThanOrEqual(1e-6);
          // The totals are those of the edge sequence, which runs from source to target.
          expect(route!.seconds).toBeCloseTo(sumOf(route!.edges, (e) => model.seconds(e)), 6);
          expect(route!.metres).toBeCloseTo(sumOf(route!.edges, (e) => v.graph.arrays.edgeLength[e]!), 6);
          expect(v.graph.edgeSource(route!.edges[0]!)).toBe(source);
          expect(v.graph.edgeTarget(route!.edges.at(-1)!)).toBe(target);
        });
      }
      console.log(`${mode}: ${reachable} reachable pairs of ${times.length}; A* p50 ${median(times).toFixed(2)} ms`);
      expect(reachable).toBeGreaterThan(times.length / 2);
    }, 240_000);
  }
});

describe('truck limits', () => {
  it('never takes the 4.41 m underpass of way 322372731 with a 4.5 m truck', () => {
    const low = [...edgesOfWay(v.build, 322372731)];
    expect(low.length).toBeGreaterThan(0);
    for (const e of low) expect(v.graph.edgeTruckLimits(e).maxHeight).toBe(4.4);
    const tall = costModel(v.graph, 'truck', { truck: { height: 4.5 } });
    const usual = costModel(v.graph, 'truck');
    for (const e of low) {
      expect(tall.allowed(e)).toBe(false);
      expect(usual.allowed(e)).toBe(v.graph.allows(e, 'truck'));
    }
    // Across the underpass itself: the default truck goes through, the tall one around.
    const e = low.find((x) => usual.allowed(x))!;
    const from = v.graph.edgeSource(e);
    const to = v.graph.edgeTarget(e);
    const through = searchRoute(usual, originAtNode(usual, from), destinationAtNode(usual, to))!;
    expect([...through.edges]).toContain(e);
    const around = searchRoute(tall, originAtNode(tall, from), destinationAtNode(tall, to));
    if (around) for (const x of around.edges) expect(v.graph.edgeTruckLimits(x).maxHeight ?? Infinity).toBeGreaterThanOrEqual(4.5);
    // And random routes of the tall truck never use any edge lower than it.
    const rnd = random(7);
    for (const source of pickNodes(tall, 10, rnd)) {
      const targets = pickNodes(tall, 5, rnd).filter((t) => t !== source);
      const routes = searchMany(tall, originAtNode(tall, source), targets.map((t) => destinationAtNode(tall, t)));
      for (const r of routes) for (const x of r?.edges ?? []) expect(v.graph.edgeTruckLimits(x).maxHeight ?? Infinity).toBeGreaterThanOrEqual(4.5);
    }
  }, 120_000);
});

describe('avoid=ferries', () => {
  it('routes around a foot ferry when walking around is possible, and takes it otherwise', () => {
    const plain = costModel(v.graph, 'pedestrian');
    const avoid = costModel(v.graph, 'pedestrian', { avoidFerries: true });
    const ferries: number[] = [];
    for (let e = 0; e < v.graph.edgeCount; e++) if (v.graph.hasFlag(e, 'ferry') && plain.allowed(e)) ferries.push(e);
    expect(ferries.length).toBeGreaterThan(0);
    let avoided = 0;
    for (const e of ferries) {
      const from = v.graph.edgeSource(e);
      const to = v.graph.edgeTarget(e);
      const withFerry = searchRoute(plain, originAtNode(plain, from), destinationAtNode(plain, to))!;
      if (!withFerry.edges.some((x) => v.graph.hasFlag(x, 'ferry'))) continue;
      const without = searchRoute(avoid, originAtNode(avoid, from), destinationAtNode(avoid, to))!;
      expect(without).not.toBeNull();
      // A walk around exists when the reference, without any ferry, reaches the far side.
      const noFerry = costModel(v.graph, plain.mode, { excludeFerries: true });
      const alternative = Number.isFinite(referenceNodeCosts(noFerry, from)[to]!);
      const usesFerry = without.edges.some((x) => v.graph.hasFlag(x, 'ferry'));
      if (alternative && without.cost < withFerry.seconds * 100) {
        expect(usesFerry, `ferry edge ${e}`).toBe(false);
        expect(without.seconds).toBeGreaterThanOrEqual(withFerry.seconds - 1e-9);
        avoided++;
      }
      if (!alternative) expect(usesFerry).toBe(true);
    }
    console.log(`avoid=ferries: ${avoided} of ${ferries.length} pedestrian ferry edges routed around`);
    expect(avoided).toBeGreaterThan(0);
  }, 120_000);
});

describe('snapped endpoints', () => {
  it('counts partial edges at both ends and starts and ends the geometry at the snapped points', () => {
    const model = costModel(v.graph, 'auto');
    const rnd = random(99);
    const usable: number[] = [];
    for (let e = 0; e < v.graph.edgeCount; e++) if (model.allowed(e) && v.graph.arrays.edgeLength[e]! > 20) usable.push(e);
    for (let i = 0; i < 50; i++) {
      const a = usable[Math.floor(rnd() * usable.length)]!;
      const b = usable[Math.floor(rnd() * usable.length)]!;
      const fa = rnd();
      const fb = rnd();
      const route = searchRoute(model, endpointOnEdge(model, a, fa), endpointOnEdge(model, b, fb), { targetLngLat: pointAtFraction(v.graph, b, fb) });
      if (!route) continue;
      const line = routeGeometry(v.graph, route);
      expect(line[0]).toEqual(pointAtFraction(v.graph, route.edges[0]!, route.startFraction));
      expect(line.at(-1)).toEqual(pointAtFraction(v.graph, route.edges.at(-1)!, route.endFraction));
      const startsOnA = route.edges[0] === a || route.edges[0] === v.graph.reverseEdge(a);
      const endsOnB = route.edges.at(-1) === b || route.edges.at(-1) === v.graph.reverseEdge(b);
      expect(startsOnA && endsOnB).toBe(true);
      expect(route.seconds).toBeCloseTo(partialSum(model, route), 6);
      for (const [lng, lat] of line) expect(Number.isInteger(Math.round(lng * 1e6)) && Math.abs(lng * 1e6 - Math.round(lng * 1e6)) < 1e-6 && Math.abs(lat * 1e6 - Math.round(lat * 1e6)) < 1e-6).toBe(true);
    }
  });

  it('goes straight along one edge when both ends are on it in order, and around otherwise', () => {
    const model = costModel(v.graph, 'auto');
    let e = 0;
    while (!(model.allowed(e) && v.graph.reverseEdge(e) === null && v.graph.arrays.edgeLength[e]! > 50)) e++;
    const direct = searchRoute(model, endpointOnEdge(model, e, 0.2), endpointOnEdge(model, e, 0.7))!;
    expect([...direct.edges]).toEqual([e]);
    expect(direct.cost).toBeCloseTo(0.5 * model.cost(e), 9);
    expect(direct.metres).toBeCloseTo(0.5 * v.graph.arrays.edgeLength[e]!, 6);
    // Backwards on a one-way edge: leave it, come round, and enter it again.
    const round = searchRoute(model, endpointOnEdge(model, e, 0.7), endpointOnEdge(model, e, 0.2));
    if (round) {
      expect(round.edges[0]).toBe(e);
      expect(round.edges.at(-1)).toBe(e);
      expect(round.edges.length).toBeGreaterThan(2);
      expect(round.cost).toBeCloseTo(partialSum(model, round, 'cost'), 6);
    }
  });
});

describe('reachWithin', () => {
  it('reaches the edges whose reference arrival is within the budget', () => {
    const model = costModel(v.graph, 'auto');
    const source = pickNodes(model, 1, random(5))[0]!;
    const reference = referenceNodeCosts(model, source);
    const t0 = performance.now();
    const reach = reachWithin(model, originAtNode(model, source), 600);
    const ms = performance.now() - t0;
    const arrival = arrivalByEdge(reach, v.graph.edgeCount);
    let reached = 0;
    for (let e = 0; e < v.graph.edgeCount; e++) {
      const end = reference[v.graph.edgeTarget(e)]!;
      if (Number.isFinite(arrival[e]!)) {
        reached++;
        expect(arrival[e]!).toBeLessThanOrEqual(600);
        expect(arrival[e]!).toBeGreaterThanOrEqual(end - 1e-6);
      }
    }
    console.log(`reachWithin 10 min: ${reached} edges in ${ms.toFixed(1)} ms`);
    expect(reached).toBeGreaterThan(100);
  });

  it('answers the same with one label array (cost is seconds) as with separate cost and seconds', () => {
    const model = costModel(v.graph, 'auto');
    expect([model.costIsSeconds, costModel(v.graph, 'auto', { avoidTolls: true }).costIsSeconds, costModel(v.graph, 'bicycle').costIsSeconds])
      .toEqual([true, false, false]);
    const general: CostModel = Object.assign(Object.create(model) as CostModel, { costIsSeconds: false });
    const rule = graphTurnRule(v.graph, 'auto');
    for (const source of pickNodes(model, 3, random(11))) {
      const fast = reachWithin(model, originAtNode(model, source), 900, rule);
      const slow = reachWithin(general, originAtNode(model, source), 900, rule);
      expect(arrivalByEdge(fast, v.graph.edgeCount)).toEqual(arrivalByEdge(slow, v.graph.edgeCount));
      const entries = (r: typeof fast) => new Map(Array.from(r.edges, (e, i) => [e, [r.entry[i], r.source[i]]]));
      expect(entries(fast)).toEqual(entries(slow));
      expect(Array.from(fast.source, (s, i) => v.graph.edgeSource(fast.edges[i]!) === s).every(Boolean)).toBe(true);
    }
  });
});

function partialSum(model: CostModel, route: RouteResult, what: 'seconds' | 'cost' = 'seconds'): number {
  const f = (e: number) => (what === 'seconds' ? model.seconds(e) : model.cost(e));
  const n = route.edges.length;
  if (n === 1) return (route.endFraction - route.startFraction) * f(route.edges[0]!);
  let s = (1 - route.startFraction) * f(route.edges[0]!) + route.endFraction * f(route.edges[n - 1]!);
  for (let i = 1; i < n - 1; i++) s += f(route.edges[i]!);
  return s;
}
