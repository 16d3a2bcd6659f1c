/**
 * The contraction hierarchy on a hand-built graph whose distances are worked out by hand:
 *
 *        ferry 300 s (both ways)
 *   0 ───────────────────────────── 4 ── pedestrian only ── 5
 *   │ 10 s                          │ 5 s (truck 72 km/h; auto would take 10 s)
 *   1 ── oneway 10 s ─→ 2 ── 10 s ── 3
 *   └────────────── 50 s ───────────┘
 */
import { describe, expect, it } from 'vitest';
import { buildContractionHierarchy } from '../../engines/routing/contraction/build.ts';
import { chTable } from '../../engines/routing/contraction/many-to-many.ts';
import { chPotential } from '../../engines/routing/contraction/potential.ts';
import { chRoute } from '../../engines/routing/contraction/query.ts';
import { checkGraphArrays } from '../../engines/routing/graph-file.ts';
import { EDGE_FLAG, NO_EDGE, modeBit, newEdgeArrays, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { ROAD_CLASSES } from '../../engines/routing/modes.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';

interface Segment {
  from: number;
  to: number;
  metres: number;
  autoKmh: number;
  truckKmh: number;
  access: number;
  oneway?: boolean;
  ferrySeconds?: number;
}

const MOTOR = modeBit('auto') | modeBit('truck');
const ALL = MOTOR | modeBit('bicycle') | modeBit('pedestrian');

/** A turn restriction: arriving from `from` at `via`, leaving for `to` is forbidden to `modes`. */
type Turn = [from: number, via: number, to: number, modes: number];

function graphOf(nodes: number, segments: Segment[], turns: Turn[] = []): RoadGraph {
  const directed: (Segment & { reverseOf: number | null; reversed: boolean })[] = [];
  for (const s of segments) {
    directed.push({ ...s, reverseOf: null, reversed: false });
    if (!s.oneway) directed.push({ ...s, from: s.to, to: s.from, reverseOf: directed.length - 1, reversed: true });
  }
  const order = directed.map((_, i) => i).sort((x, y) => directed[x]!.from - directed[y]!.from || x - y);
  const position = new Map(order.map((d, i) => [d, i]));
  const m = directed.length;
  const edge = <T>(f: (d: (typeof directed)[number], i: number) => T) => order.map((d) => f(directed[d]!, d));
  const reverse = new Uint32Array(m).fill(NO_EDGE);
  order.forEach((d, i) => {
    const r = directed[d]!.reverseOf;
    if (r !== null) {
      reverse[i] = position.get(r)!;
      reverse[position.get(r)!] = i;
    }
  });
  const firstEdge = new Uint32Array(nodes + 1);
  for (const d of directed) firstEdge[d.from + 1] = firstEdge[d.from + 1]! + 1;
  for (let v = 0; v < nodes; v++) firstEdge[v + 1] = firstEdge[v + 1]! + firstEdge[v]!;
  const arrays: GraphArrays = {
    nodeLng: Int32Array.from({ length: nodes }, (_, i) => -123_100_000 + i * 1000),
    nodeLat: Int32Array.from({ length: nodes }, () => 49_250_000),
    firstEdge,
    ...newEdgeArrays(m),
    edgeTarget: Uint32Array.from(edge((d) => d.to)),
    edgeLength: Float32Array.from(edge((d) => d.metres)),
    edgeClass: new Uint8Array(m).fill(ROAD_CLASSES.indexOf('residential')),
    edgeFlags: Uint16Array.from(edge((d) => (d.ferrySeconds ? EDGE_FLAG.ferry : 0) | (d.reversed ? EDGE_FLAG.reversed : 0))),
    edgeAccess: Uint8Array.from(edge((d) => d.access)),
    edgeSpeedAuto: Uint8Array.from(edge((d) => d.autoKmh)),
    edgeSpeedTruck: Uint8Array.from(edge((d) => d.truckKmh)),
    edgeFerrySeconds: Float32Array.from(edge((d) => d.ferrySeconds ?? 0)),
    edgeReverse: reverse,
    shapeCoords: new Int32Array(0),
    stringBytes: new Uint8Array(0),
    stringOffsets: new Uint32Array(1),
    turnInEdge: new Uint32Array(0),
    turnOutEdge: new Uint32Array(0),
    turnModes: new Uint8Array(0),
  };
  const edgeBetween = (x: number, y: number) => {
    for (let e = firstEdge[x]!; e < firstEdge[x + 1]!; e++) if (arrays.edgeTarget[e] === y) return e;
    throw new Error(`no edge ${x}→${y}`);
  };
  const forbidden = turns.map(([from, via, to, modes]) => [edgeBetween(from, via), edgeBetween(via, to), modes] as const)
    .sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  arrays.turnInEdge = Uint32Array.from(forbidden, (t) => t[0]);
  arrays.turnOutEdge = Uint32Array.from(forbidden, (t) => t[1]);
  arrays.turnModes = Uint8Array.from(forbidden, (t) => t[2]);
  checkGraphArrays(arrays);
  return new RoadGraph(arrays);
}

const graph = graphOf(6, [
  { from: 0, to: 1, metres: 100, autoKmh: 36, truckKmh: 36, access: ALL },
  { from: 1, to: 2, metres: 100, autoKmh: 36, truckKmh: 36, access: ALL, oneway: true },
  { from: 2, to: 3, metres: 100, autoKmh: 36, truckKmh: 36, access: ALL },
  { from: 1, to: 3, metres: 500, autoKmh: 36, truckKmh: 36, access: ALL },
  { from: 3, to: 4, metres: 100, autoKmh: 36, truckKmh: 72, access: ALL },
  { from: 0, to: 4, metres: 3000, autoKmh: 0, truckKmh: 0, access: MOTOR, ferrySeconds: 300 },
  { from: 4, to: 5, metres: 100, autoKmh: 0, truckKmh: 0, access: modeBit('pedestrian') },
]);

/** The directed edge from → to. */
function edgeOf(from: number, to: number): number {
  const { start, end } = graph.edgesOf(from);
  for (let e = start; e < end; e++) if (graph.edgeTarget(e) === to) return e;
  throw new Error(`no edge ${from}→${to}`);
}
const at = (from: number, to: number, fraction: number) => [{ edge: edgeOf(from, to), fraction }];
/** Leaving node n along n→next from its start / arriving at n along prev→n at its end. */
const leave = (n: number, next: number) => at(n, next, 0);
const arrive = (prev: number, n: number) => at(prev, n, 1);

describe('contraction hierarchy on a hand-built graph', () => {
  const { hierarchy: ch, stats } = buildContractionHierarchy(graph);

  it('weighs each edge by its fastest motor mode and leaves out what no motor mode may use', () => {
    const w = ch.arrays.edgeWeight;
    expect(w[edgeOf(0, 1)]).toBeCloseTo(10, 5);
    expect(w[edgeOf(3, 4)]).toBeCloseTo(5, 5);
    expect(w[edgeOf(4, 0)]).toBe(300);
    expect(w[edgeOf(4, 5)]).toBe(Infinity);
    expect(stats.nodes).toBe(6);
  });

  it('routes with the oneway, around it backwards, and finds nothing towards the pedestrian-only node', () => {
    const route = (o: ReturnType<typeof at>, d: ReturnType<typeof at>) => chRoute(ch, graph, o, d);
    const forward = route(leave(0, 1), arrive(1, 2))!;
    expect(forward.bound).toBeCloseTo(20, 4);
    expect([...forward.edges]).toEqual([edgeOf(0, 1), edgeOf(1, 2)]);
    const back = route(leave(2, 3), arrive(1, 0))!;
    expect(back.bound).toBeCloseTo(70, 4);
    expect([...back.edges]).toEqual([edgeOf(2, 3), edgeOf(3, 1), edgeOf(1, 0)]);
    // The truck's 5 s beats the ferry's 300 s both ways.
    expect(route(leave(4, 3), arrive(1, 0))!.bound).toBeCloseTo(65, 4);
    expect(route(leave(0, 1), arrive(3, 4))!.bound).toBeCloseTo(35, 4);
    expect(route(leave(0, 1), arrive(4, 5))).toBeNull();
    expect(route(at(0, 1, 0.5), at(2, 3, 0.5))!.bound).toBeCloseTo(20, 4);
  });

  it('goes straight along one edge when the destination lies ahead on it, and round when it lies behind', () => {
    const ahead = chRoute(ch, graph, at(1, 2, 0.2), at(1, 2, 0.7))!;
    expect(ahead.bound).toBeCloseTo(5, 4);
    expect([...ahead.edges]).toEqual([edgeOf(1, 2)]);
    expect([ahead.startFraction, ahead.endFraction]).toEqual([0.2, 0.7]);
    const behind = chRoute(ch, graph, at(1, 2, 0.7), at(1, 2, 0.2))!;
    expect(behind.bound).toBeCloseTo(3 + 10 + 50 + 2, 4);
    expect([...behind.edges]).toEqual([edgeOf(1, 2), edgeOf(2, 3), edgeOf(3, 1), edgeOf(1, 2)]);
  });

  it('gives potentials towards the end of edge 1→0 (node 0 itself is 20 s away: round by 1) and Infinity where it cannot be reached', () => {
    const pot = chPotential(ch, graph, arrive(1, 0));
    expect([0, 1, 2, 3, 4].map((n) => pot.potential(n))).toEqual([20, 10, 70, 60, 65].map((x) => expect.closeTo(x, 4)));
    expect(pot.potential(5)).toBe(Infinity);
  });

  it('fills a table with the same answers as chRoute', () => {
    const origins = [leave(0, 1), leave(2, 3), at(1, 2, 0.7)];
    const destinations = [arrive(1, 2), arrive(1, 0), arrive(4, 5), at(1, 2, 0.2)];
    const table = chTable(ch, graph, origins, destinations);
    origins.forEach((o, i) => destinations.forEach((d, j) => {
      const one = chRoute(ch, graph, o, d);
      const cell = table[i]![j]!;
      expect(cell?.bound).toBe(one?.bound);
      expect(cell && [...cell.edges]).toEqual(one && [...one.edges]);
    }));
    expect(table[0]![2]).toBeNull();
  });
});

/**
 * A 3×3 street grid, every block 100 m at 36 km/h (10 s):
 *   0 ─ 1 ─ 2
 *   │   │   │
 *   3 ─ 4 ─ 5
 *   │   │   │
 *   6 ─ 7 ─ 8
 * Northbound on 7→4, the left turn onto 4→3 is forbidden (to both motor modes, or to auto only).
 */
function gridWithBan(modes: number): RoadGraph {
  const block = (from: number, to: number): Segment => ({ from, to, metres: 100, autoKmh: 36, truckKmh: 36, access: ALL });
  const segments = [[0, 1], [1, 2], [3, 4], [4, 5], [6, 7], [7, 8], [0, 3], [3, 6], [1, 4], [4, 7], [2, 5], [5, 8]].map(([x, y]) => block(x!, y!));
  return graphOf(9, segments, [[7, 4, 3, modes]]);
}

describe('turn restrictions inside the hierarchy', () => {
  const edgeIn = (g: RoadGraph, from: number, to: number) => {
    const { start, end } = g.edgesOf(from);
    for (let e = start; e < end; e++) if (g.edgeTarget(e) === to) return e;
    throw new Error(`no edge ${from}→${to}`);
  };

  it('tells arrivals apart around the banned junction and goes round the block instead of turning left or turning back', () => {
    const g = gridWithBan(MOTOR);
    const { hierarchy: ch, stats } = buildContractionHierarchy(g);
    // Every node is within two blocks of node 4: the whole grid is told apart by arrival.
    expect(stats.regionNodes).toBe(9);
    expect(stats.regionEdges).toBe(24);
    const origin = [{ edge: edgeIn(g, 7, 4), fraction: 0 }];
    const destination = [{ edge: edgeIn(g, 4, 3), fraction: 1 }];
    const route = chRoute(ch, g, origin, destination)!;
    // 7→4, then round the block east or west of 1–4 and back into 4 (no u-turn at 5 or 1), then 4→3.
    expect(route.bound).toBeCloseTo(60, 6);
    const path = [...route.edges].map((e) => `${g.edgeSource(e)}→${g.edgeTarget(e)}`);
    expect(path[0]).toBe('7→4');
    expect(path.at(-1)).toBe('4→3');
    for (let i = 0; i + 1 < route.edges.length; i++) expect(g.reverseEdge(route.edges[i]!)).not.toBe(route.edges[i + 1]);
    // Southbound into 4, the right turn onto 4→3 is allowed.
    expect(chRoute(ch, g, [{ edge: edgeIn(g, 1, 4), fraction: 0 }], destination)!.bound).toBeCloseTo(20, 6);
    // Potentials agree: from the end of 7→4 the destination is 50 s away.
    const pot = chPotential(ch, g, destination);
    expect(pot.potential(ch.nodes.headOf(g, edgeIn(g, 7, 4)))).toBeCloseTo(50, 6);
    expect(pot.potential(ch.nodes.headOf(g, edgeIn(g, 1, 4)))).toBeCloseTo(10, 6);
    const table = chTable(ch, g, [origin], [destination]);
    expect(table[0]![0]!.bound).toBeCloseTo(60, 6);
  });

  it('keeps the turn where a truck may still take it (the hierarchy is a lower bound of every motor mode)', () => {
    const g = gridWithBan(modeBit('auto'));
    const { hierarchy: ch } = buildContractionHierarchy(g);
    const route = chRoute(ch, g, [{ edge: edgeIn(g, 7, 4), fraction: 0 }], [{ edge: edgeIn(g, 4, 3), fraction: 1 }])!;
    expect(route.bound).toBeCloseTo(20, 6);
  });

  it('has no region without restrictions: the node-based hierarchy of before', () => {
    const g = gridWithBan(modeBit('bicycle'));
    const { stats } = buildContractionHierarchy(g);
    expect([stats.regionNodes, stats.regionEdges, stats.nodes]).toEqual([0, 0, 9]);
  });
});
