import { beforeAll, describe, expect, it } from 'vitest';
import { syntheticRoadGraph } from '../support/routing/synthetic-graph.ts';
import { TRUCK_DEFAULTS } from '../../engines/routing/cost-model.ts';
import { checkGraphArrays } from '../../engines/routing/graph-file.ts';
import { EDGE_FLAG, GRAPH_ARRAY_NAMES, NO_EDGE, modeBit, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { ROAD_CLASSES } from '../../engines/routing/modes.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

const NODES = 20_000;
/** A seed whose small graph has corridors long enough for trunk roads (seed 1 happens to have none). */
const SEED = 2;
const AUTO = modeBit('auto');

function edgeSources(a: GraphArrays): Uint32Array {
  const source = new Uint32Array(a.edgeTarget.length);
  for (let u = 0; u + 1 < a.firstEdge.length; u++) source.fill(u, a.firstEdge[u]!, a.firstEdge[u + 1]!);
  return source;
}

/** Nodes reached from node 0 over the directed edges `use` accepts. */
function reached(a: GraphArrays, use: (e: number) => boolean): number {
  const n = a.nodeLng.length;
  const seen = new Uint8Array(n);
  const queue = new Uint32Array(n);
  let head = 0;
  let tail = 0;
  queue[tail++] = 0;
  seen[0] = 1;
  while (head < tail) {
    const u = queue[head++]!;
    for (let e = a.firstEdge[u]!; e < a.firstEdge[u + 1]!; e++) {
      const v = a.edgeTarget[e]!;
      if (!seen[v] && use(e)) {
        seen[v] = 1;
        queue[tail++] = v;
      }
    }
  }
  return tail;
}

const countEdges = (a: GraphArrays, test: (e: number) => boolean): number => {
  let count = 0;
  for (let e = 0; e < a.edgeTarget.length; e++) if (test(e)) count++;
  return count;
};

describe('synthetic national road graph', () => {
  let a: GraphArrays;
  let source: Uint32Array;
  beforeAll(() => {
    a = syntheticRoadGraph({ nodes: NODES, seed: SEED });
    source = edgeSources(a);
  });

  it('has the release layout, at least the nodes asked for, and 2.3–2.8 directed edges per node', () => {
    expect(() => checkGraphArrays(a)).not.toThrow();
    expect(a.nodeLng.length).toBeGreaterThanOrEqual(NODES);
    const ratio = a.edgeTarget.length / a.nodeLng.length;
    expect(ratio).toBeGreaterThan(2.3);
    expect(ratio).toBeLessThan(2.8);
  });

  it('is the same for the same seed and differs for another', () => {
    const again = syntheticRoadGraph({ nodes: NODES, seed: SEED });
    for (const name of GRAPH_ARRAY_NAMES) expect(Buffer.from(again[name].buffer).equals(Buffer.from(a[name].buffer)), name).toBe(true);
    const other = syntheticRoadGraph({ nodes: NODES, seed: SEED + 1 });
    expect(Buffer.from(other.nodeLng.buffer).equals(Buffer.from(a.nodeLng.buffer))).toBe(false);
  });

  it('lies in the Canada-like box', () => {
    let [west, east, south, north] = [Infinity, -Infinity, Infinity, -Infinity];
    for (let u = 0; u < a.nodeLng.length; u++) {
      west = Math.min(west, a.nodeLng[u]! / 1e6);
      east = Math.max(east, a.nodeLng[u]! / 1e6);
      south = Math.min(south, a.nodeLat[u]! / 1e6);
      north = Math.max(north, a.nodeLat[u]! / 1e6);
    }
    expect(west).toBeGreaterThan(-131);
    expect(east).toBeLessThan(-54);
    expect(south).toBeGreaterThan(41.5);
    expect(north).toBeLessThan(60.5);
    // Spread over the country, not one region.
    expect(east - west).toBeGreaterThan(30);
  });

  it('uses every road class from motorway to residential, and paths, ferries, links', () => {
    const seen = new Set<string>();
    for (let e = 0; e < a.edgeTarget.length; e++) seen.add(ROAD_CLASSES[a.edgeClass[e]!]!);
    for (const c of ['motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'service', 'footway', 'ferry']) {
      expect(seen, c).toContain(c);
    }
    expect(countEdges(a, (e) => (a.edgeFlags[e]! & EDGE_FLAG.link) !== 0 && a.edgeClass[e] === 0)).toBeGreaterThan(0);
  });

  it('pairs the two directions of each segment', () => {
    let pairs = 0;
    for (let e = 0; e < a.edgeTarget.length; e++) {
      const r = a.edgeReverse[e]!;
      if (r === NO_EDGE) continue;
      pairs++;
      if (a.edgeReverse[r] !== e || a.edgeTarget[r] !== source[e] || a.edgeTarget[e] !== source[r]
        || a.edgeShapeStart[r] !== a.edgeShapeStart[e] || a.edgeShapeCount[r] !== a.edgeShapeCount[e]
        || ((a.edgeFlags[e]! ^ a.edgeFlags[r]!) !== EDGE_FLAG.reversed) || a.edgeLength[r] !== a.edgeLength[e]) {
        expect.fail(`edge ${e} and its reverse ${r} do not mirror each other`);
      }
    }
    expect(pairs).toBeGreaterThan(a.edgeTarget.length * 0.9);
  });

  it('measures each edge along its shape, at least the straight line between its ends', () => {
    let shaped = 0;
    for (let e = 0; e < a.edgeTarget.length; e++) {
      const u = source[e]!;
      const v = a.edgeTarget[e]!;
      const straight = haversineMetres(a.nodeLng[u]! / 1e6, a.nodeLat[u]! / 1e6, a.nodeLng[v]! / 1e6, a.nodeLat[v]! / 1e6);
      if (!(a.edgeLength[e]! > 0) || a.edgeLength[e]! < straight * 0.999 - 0.01) expect.fail(`edge ${e}: ${a.edgeLength[e]} m < ${straight} m`);
      if (a.edgeShapeCount[e]! > 0) shaped++;
    }
    expect(shaped).toBeGreaterThan(0);
  });

  it('holds one main component over directed edges, also for cars and for trucks alone', () => {
    expect(reached(a, () => true) / a.nodeLng.length).toBeGreaterThanOrEqual(0.98);
    expect(reached(a, (e) => (a.edgeAccess[e]! & AUTO) !== 0) / a.nodeLng.length).toBeGreaterThanOrEqual(0.98);
    // The default truck (4.11 m, 21.77 t): only tracks and paths are closed to it.
    const truckMay = (e: number) => (a.edgeAccess[e]! & modeBit('truck')) !== 0
      && (a.edgeMaxHeight[e] === 0 || a.edgeMaxHeight[e]! / 10 >= TRUCK_DEFAULTS.height)
      && (a.edgeMaxWeight[e] === 0 || a.edgeMaxWeight[e]! / 10 >= TRUCK_DEFAULTS.weight);
    expect(reached(a, truckMay) / a.nodeLng.length).toBeGreaterThanOrEqual(0.98);
  });

  it('has one-ways, walking and cycling paths, tolls, ferries with crossing times, truck limits and hazmat bans', () => {
    const oneway = countEdges(a, (e) => (a.edgeAccess[e]! & AUTO) !== 0
      && (a.edgeReverse[e] === NO_EDGE || (a.edgeAccess[a.edgeReverse[e]!]! & AUTO) === 0));
    expect(oneway).toBeGreaterThan(0);
    expect(countEdges(a, (e) => a.edgeAccess[e] !== 0 && (a.edgeAccess[e]! & (AUTO | modeBit('truck'))) === 0)).toBeGreaterThan(0);
    expect(countEdges(a, (e) => (a.edgeFlags[e]! & EDGE_FLAG.toll) !== 0)).toBeGreaterThan(0);
    const ferries = countEdges(a, (e) => (a.edgeFlags[e]! & EDGE_FLAG.ferry) !== 0);
    expect(ferries).toBeGreaterThan(0);
    expect(countEdges(a, (e) => (a.edgeFlags[e]! & EDGE_FLAG.ferry) !== 0 && a.edgeFerrySeconds[e]! > 0)).toBe(ferries);
    expect(countEdges(a, (e) => a.edgeMaxHeight[e]! > 0)).toBeGreaterThan(0);
    expect(countEdges(a, (e) => (a.edgeFlags[e]! & EDGE_FLAG.hazmatForbidden) !== 0)).toBeGreaterThan(0);
  });

  it('drives faster on motorways than on residential streets, trucks no faster than cars', () => {
    for (let e = 0; e < a.edgeTarget.length; e++) {
      if (a.edgeSpeedTruck[e]! > a.edgeSpeedAuto[e]!) expect.fail(`edge ${e}: truck faster than cars`);
      const link = (a.edgeFlags[e]! & EDGE_FLAG.link) !== 0;
      if (a.edgeClass[e] === 0 && !link && a.edgeSpeedAuto[e]! < 80) expect.fail(`motorway edge ${e} at ${a.edgeSpeedAuto[e]} km/h`);
      if (a.edgeClass[e] === 6 && a.edgeSpeedAuto[e]! > 50) expect.fail(`residential edge ${e} at ${a.edgeSpeedAuto[e]} km/h`);
    }
  });

  it('keeps the turn table sorted by (in, out), each pair once, the two edges meeting at a node', () => {
    const n = a.turnInEdge.length;
    expect(n).toBeGreaterThan(0);
    for (let i = 0; i < n; i++) {
      const inEdge = a.turnInEdge[i]!;
      const outEdge = a.turnOutEdge[i]!;
      expect(a.edgeTarget[inEdge]).toBe(source[outEdge]);
      expect(a.turnModes[i]! & AUTO).toBe(AUTO);
      if (i > 0) {
        const prev = a.turnInEdge[i - 1]!;
        expect(prev < inEdge || (prev === inEdge && a.turnOutEdge[i - 1]! < outEdge)).toBe(true);
      }
    }
  });
});
