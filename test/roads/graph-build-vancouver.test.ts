import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { NO_EDGE } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { buildRoadGraph, edgesOfWay, graphNodeOf, type RoadGraphBuild } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import type { OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { MODES, ROAD_CLASSES, type RoadClass, type WayProfile } from '../../ingest/roads/way-profile.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { sharedData } from '../support/paths.ts';

const VANCOUVER = sharedData('osm/pelias-vancouver_canada.osm.pbf');

/** Stand-in for wayProfile: the usual highway classes (links as their class), both ways, oneway=yes forward only. */
function classOf(tags: OsmTags): RoadClass | null {
  const highway = (tags.highway ?? '').replace(/_link$/, '');
  return highway !== 'ferry' && (ROAD_CLASSES as readonly string[]).includes(highway) ? (highway as RoadClass) : null;
}

function stubProfile(tags: OsmTags): WayProfile | null {
  const roadClass = classOf(tags);
  if (!roadClass) return null;
  const backward = tags.oneway !== 'yes';
  return {
    roadClass, link: /_link$/.test(tags.highway!), access: Object.fromEntries(MODES.map((m) => [m, { forward: true, backward }])) as WayProfile['access'],
    speedKmh: { auto: 50, truck: 40 }, toll: false, ferry: false, ferrySeconds: null, bridge: tags.bridge === 'yes', tunnel: tags.tunnel === 'yes',
    truck: { maxHeight: null, maxWidth: null, maxLength: null, maxWeight: null, maxAxleLoad: null },
    truckRoute: false, hazmatForbidden: false, name: tags.name ?? null, ref: tags.ref ?? null,
  };
}

/** Graph node and edge counts the plain way, with Maps and objects: the oracle for the build. */
async function referenceCounts(file: string): Promise<{ nodes: number; edges: number; oneway: number }> {
  const ways: { refs: number[]; oneway: boolean }[] = [];
  const coords = new Set<number>();
  await readOsm(file, {
    way(w) {
      if (classOf(w.tags)) ways.push({ refs: w.refs.filter((r, i) => i === 0 || r !== w.refs[i - 1]), oneway: w.tags.oneway === 'yes' });
    },
    node(n) {
      coords.add(n.id);
    },
  });
  const runs = ways.flatMap((w) => {
    const out: { refs: number[]; oneway: boolean }[] = [];
    let run: number[] = [];
    for (const r of [...w.refs, NaN]) {
      if (coords.has(r)) run.push(r);
      else {
        if (run.length >= 2) out.push({ refs: run, oneway: w.oneway });
        run = [];
      }
    }
    return out;
  });
  const uses = new Map<number, number>();
  const graphNodes = new Set<number>();
  for (const run of runs) {
    graphNodes.add(run.refs[0]!).add(run.refs.at(-1)!);
    for (const r of run.refs) uses.set(r, (uses.get(r) ?? 0) + 1);
  }
  for (const [id, n] of uses) if (n >= 2) graphNodes.add(id);
  let edges = 0;
  let oneway = 0;
  for (const run of runs) {
    const cuts = run.refs.slice(1).filter((r) => graphNodes.has(r)).length;
    edges += cuts * (run.oneway ? 1 : 2);
    if (run.oneway) oneway += cuts;
  }
  return { nodes: graphNodes.size, edges, oneway };
}

describe('buildRoadGraph on the Vancouver extract', () => {
  let dir: string;
  let build: RoadGraphBuild;
  let g: RoadGraph;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-graph-vancouver-'));
    const t0 = performance.now();
    const ways = await readRoadWays(VANCOUVER, stubProfile);
    const t1 = performance.now();
    build = buildRoadGraph(ways);
    const t2 = performance.now();
    const file = path.join(dir, 'roads.graph');
    const bytes = await writeGraphFile(file, build.arrays);
    const t3 = performance.now();
    g = await RoadGraph.open(file);
    const t4 = performance.now();
    console.log(`vancouver road graph: ${JSON.stringify(build.stats)}; read ${(t1 - t0).toFixed(0)} ms, ` +
      `build ${(t2 - t1).toFixed(0)} ms, write ${(t3 - t2).toFixed(0)} ms (${(bytes / 1e6).toFixed(2)} MB), open ${(t4 - t3).toFixed(0)} ms`);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('has the node and edge counts of a plain reference build', async () => {
    const ref = await referenceCounts(VANCOUVER);
    expect([g.nodeCount, g.edgeCount]).toEqual([ref.nodes, ref.edges]);
    let unpaired = 0;
    for (let e = 0; e < g.edgeCount; e++) if (g.arrays.edgeReverse[e] === NO_EDGE) unpaired++;
    expect(unpaired).toBe(ref.oneway);
    expect(g.nodeCount).toBeGreaterThan(10_000);
  });

  it('is consistent CSR: ascending firstEdge, targets in range, symmetric reverse edges', () => {
    const { firstEdge, edgeTarget, edgeReverse } = g.arrays;
    expect(firstEdge[0]).toBe(0);
    let bad = 0;
    for (let u = 0; u < g.nodeCount; u++) {
      if (firstEdge[u]! > firstEdge[u + 1]!) bad++;
      for (let e = firstEdge[u]!; e < firstEdge[u + 1]!; e++) {
        if (edgeTarget[e]! >= g.nodeCount) bad++;
        const r = edgeReverse[e]!;
        if (r === NO_EDGE) continue;
        if (edgeReverse[r] !== e || edgeTarget[r] !== u || g.edgeSource(r) !== edgeTarget[e]) bad++;
      }
    }
    expect(bad).toBe(0);
  });

  it('measures every edge within 1e-6 of the haversine length of its shape', () => {
    let worst = 0;
    for (let e = 0; e < g.edgeCount; e++) {
      const s = g.edgeShapeMicro(e);
      let metres = 0;
      for (let i = 2; i < s.length; i += 2) metres += haversineMetres(s[i - 2]! / 1e6, s[i - 1]! / 1e6, s[i]! / 1e6, s[i + 1]! / 1e6);
      const stored = g.arrays.edgeLength[e]!;
      const error = metres === 0 ? stored : Math.abs(stored - metres) / metres;
      worst = Math.max(worst, error);
    }
    expect(worst).toBeLessThan(1e-6);
  });

  it('maps OSM nodes and ways to the graph', () => {
    for (let w = 0; w < build.wayIds.length; w += 97) {
      for (const e of edgesOfWay(build, build.wayIds[w]!)) {
        const source = g.edgeSource(e);
        expect(graphNodeOf(build, build.nodeOsmIds[source]!)).toBe(source);
      }
    }
    expect(graphNodeOf(build, -1)).toBe(-1);
  });
});
