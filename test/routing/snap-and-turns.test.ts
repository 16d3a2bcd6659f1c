import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import { destinationAtNode, originAtNode } from '../../engines/routing/endpoints.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { pointAtFraction } from '../../engines/routing/route-geometry.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { buildRoadGraph, graphNodeOf } from '../../ingest/roads/graph-build.ts';
import { RoadWaysCollector } from '../../ingest/roads/read-ways.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { median, openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

describe('snapping on the Vancouver graph', () => {
  let v: VancouverGraph;
  let index: SnapIndex;
  beforeAll(async () => {
    v = await openVancouverGraph();
    const t0 = performance.now();
    index = SnapIndex.build(v.graph);
    console.log(`snap index: ${(performance.now() - t0).toFixed(0)} ms`);
  }, 300_000);
  afterAll(() => v?.close());

  it('snaps points on edges to that edge at distance ~0', () => {
    const model = costModel(v.graph, 'auto');
    const rnd = random(3);
    const times: number[] = [];
    let same = 0;
    for (let i = 0; i < 300; i++) {
      let e: number;
      do e = Math.floor(rnd() * v.graph.edgeCount);
      while (!model.allowed(e));
      const f = 0.05 + 0.9 * rnd();
      const [lng, lat] = pointAtFraction(v.graph, e, f);
      const t0 = performance.now();
      const hit = index.snap(lng, lat, model, 10);
      times.push(performance.now() - t0);
      expect(hit).not.toBeNull();
      expect(hit!.distanceMetres).toBeLessThan(0.15);
      expect(model.allowed(hit!.edge)).toBe(true);
      // Overlapping ways can share the point; otherwise it is this segment, in either direction.
      if (hit!.edge === e || hit!.edge === v.graph.reverseEdge(e)) {
        same++;
        const along = hit!.edge === e ? hit!.fraction : 1 - hit!.fraction;
        expect(Math.abs(along - f) * v.graph.arrays.edgeLength[e]!).toBeLessThan(0.2);
      }
    }
    console.log(`snap p50 ${median(times).toFixed(3)} ms; ${same}/300 on the edge the point was taken from`);
    expect(same).toBeGreaterThanOrEqual(290);
  });

  it('lists candidates nearest first within the radius and only on edges the mode may use', () => {
    const model = costModel(v.graph, 'auto');
    const [lng, lat] = v.graph.nodeLngLat(v.graph.edgeTarget(0));
    const list = index.candidates(lng + 0.0002, lat + 0.0001, model, 80, 5);
    expect(list.length).toBeGreaterThan(0);
    for (let i = 1; i < list.length; i++) expect(list[i]!.distanceMetres).toBeGreaterThanOrEqual(list[i - 1]!.distanceMetres);
    for (const c of list) {
      expect(c.distanceMetres).toBeLessThanOrEqual(80);
      expect(model.allowed(c.edge)).toBe(true);
    }
    // Far from every road: nothing within 10 m of the middle of the Strait of Georgia.
    expect(index.snap(-123.45, 49.2, model, 10)).toBeNull();
  });

  it('skips roads the mode may not use', () => {
    const walk = costModel(v.graph, 'pedestrian');
    const drive = costModel(v.graph, 'auto');
    let e = 0;
    while (!(walk.allowed(e) && !drive.allowed(e) && (v.graph.reverseEdge(e) === null || !drive.allowed(v.graph.reverseEdge(e)!)))) e++;
    const [lng, lat] = pointAtFraction(v.graph, e, 0.5);
    expect(index.snap(lng, lat, walk, 5)!.distanceMetres).toBeLessThan(0.15);
    const car = index.snap(lng, lat, drive, 500);
    if (car) expect(car.edge === e || car.edge === v.graph.reverseEdge(e)).toBe(false);
  });
});

/**
 * A small synthetic graph: a street A–B–C with a loop B–D–C beside it.
 *   D
 *  / \
 * A–B–C
 */
function triangleGraph() {
  const nodes: [number, number, number][] = [[1, -123.1, 49.0], [2, -123.099, 49.0], [3, -123.098, 49.0], [4, -123.0985, 49.0008]];
  const c = new RoadWaysCollector();
  const road = wayProfile({ highway: 'residential' })!;
  c.addWay(10, [1, 2], road);
  c.addWay(11, [2, 3], road);
  c.addWay(12, [2, 4], road);
  c.addWay(13, [4, 3], road);
  c.seal();
  for (const [id, lng, lat] of nodes) c.addNode(id, lng, lat);
  const build = buildRoadGraph(c.finish());
  const graph = new RoadGraph(build.arrays);
  const node = (osm: number) => graphNodeOf(build, osm);
  const edge = (from: number, to: number) => {
    const { start, end } = graph.edgesOf(node(from));
    for (let e = start; e < end; e++) if (graph.edgeTarget(e) === node(to)) return e;
    throw new Error(`no edge ${from}→${to}`);
  };
  return { graph, node, edge };
}

describe('turn rules and u-turns', () => {
  it('honours a forbidden turn by taking the detour', () => {
    const { graph, node, edge } = triangleGraph();
    const model = costModel(graph, 'auto');
    const straight = searchRoute(model, originAtNode(model, node(1)), destinationAtNode(model, node(3)))!;
    expect([...straight.edges]).toEqual([edge(1, 2), edge(2, 3)]);
    const ab = edge(1, 2);
    const bc = edge(2, 3);
    const detour = searchRoute(model, originAtNode(model, node(1)), destinationAtNode(model, node(3)), {
      turnRule: (inEdge, outEdge) => inEdge === ab && outEdge === bc,
    })!;
    expect([...detour.edges]).toEqual([ab, edge(2, 4), edge(4, 3)]);
    expect(detour.cost).toBeCloseTo(model.cost(ab) + model.cost(edge(2, 4)) + model.cost(edge(4, 3)), 9);
    expect(detour.cost).toBeGreaterThan(straight.cost);
  });

  it('forbids u-turns at through nodes and allows them at dead ends', () => {
    const { graph, node, edge } = triangleGraph();
    const model = costModel(graph, 'auto');
    // B→A then back A→B: A is a dead end, so B → A → B is the way to reach B having gone to A.
    const viaDeadEnd = searchRoute(model, originAtNode(model, node(2)), destinationAtNode(model, node(2)));
    expect([...viaDeadEnd!.edges]).toEqual([edge(2, 1), edge(1, 2)]);
    // C → B with B→C forbidden as a u-turn: to return to C from B one goes round by D.
    const cb = edge(3, 2);
    const back = searchRoute(model, [{ edge: cb, fraction: 0 }], [{ edge: edge(2, 3), fraction: 1 }])!;
    expect([...back.edges]).not.toEqual([cb, edge(2, 3)]);
    expect(back.edges[0]).toBe(cb);
    expect(back.edges.at(-1)).toBe(edge(2, 3));
  });
});
