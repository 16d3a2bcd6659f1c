/**
 * Turn restriction relations placed on the road graph: the forbidden (in edge, out edge) pairs
 * with their modes, the restrictions reported as not applied (and why), the graph file's turn
 * section and RoadGraph.turnForbidden. Inputs: a small PBF cross, GraphHopper's turn-cost
 * fixture (OSM XML) and the Vancouver extract.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import { destinationAtNode, originAtNode } from '../../engines/routing/endpoints.ts';
import { readGraphFile, writeGraphFile } from '../../engines/routing/graph-file.ts';
import { modeBit } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { buildRoadGraph, graphNodeOf, type RoadGraphBuild } from '../../ingest/roads/graph-build.ts';
import { readOsm } from '../../ingest/osm/pbf-reader.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { applyTurnRestrictions, readTurnRestrictions, type TurnRestrictionBuild } from '../../ingest/roads/restriction-build.ts';
import { MODES } from '../../ingest/roads/way-profile.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { OsmPbfWriter, type OsmWriteRelation, type OsmWriteWay } from '../../samples/geocoding/pbf-writer.ts';
import { sharedData } from '../support/paths.ts';

const modeMask = (...modes: (typeof MODES)[number][]) => modes.reduce((m, mode) => m | modeBit(mode), 0);
const VEHICLES = modeMask('auto', 'truck', 'bicycle');

interface Built {
  build: RoadGraphBuild;
  turns: TurnRestrictionBuild;
  graph: RoadGraph;
  malformed: { relation: number; reason: string }[];
  usableRelations: number;
}

/** Reads, builds, places the restrictions, writes the graph file and opens it again. */
async function buildWithRestrictions(osmFile: string, dir: string): Promise<Built> {
  const build = buildRoadGraph(await readRoadWays(osmFile, wayProfile));
  const relations = await readTurnRestrictions(osmFile);
  const turns = applyTurnRestrictions(build, relations.restrictions);
  const file = path.join(dir, `${path.basename(osmFile)}.graph`);
  await writeGraphFile(file, turns.arrays);
  return { build, turns, graph: await RoadGraph.open(file), malformed: relations.malformed, usableRelations: relations.usableRelations };
}

/** The turn table as "from>via via>to mask" in OSM node ids. */
function describeTurns({ graph, build }: Built): string[] {
  const ends = (e: number) => `${build.nodeOsmIds[graph.edgeSource(e)]}>${build.nodeOsmIds[graph.edgeTarget(e)]}`;
  const { turnInEdge, turnOutEdge, turnModes } = graph.arrays;
  return Array.from(turnInEdge, (inEdge, i) => `${ends(inEdge)} ${ends(turnOutEdge[i]!)} ${turnModes[i]}`).sort();
}

/** The directed edge between two OSM nodes (the only one in these small graphs). */
function edgeBetween({ graph, build }: Built, from: number, to: number): number {
  for (let e = 0; e < graph.edgeCount; e++) {
    if (build.nodeOsmIds[graph.edgeSource(e)] === from && build.nodeOsmIds[graph.edgeTarget(e)] === to) return e;
  }
  throw new Error(`no edge ${from}>${to}`);
}

// A cross at node 1: arms to 2 (north), 3 (east), 4 (south), 5 (west); way 17 is one way from 1 to 6.
const NODES: Record<number, [number, number]> = {
  1: [-123.1, 49.28], 2: [-123.1, 49.281], 3: [-123.099, 49.28], 4: [-123.1, 49.279], 5: [-123.101, 49.28],
  6: [-123.0995, 49.2795], 7: [-123.09, 49.29], 8: [-123.089, 49.29], 9: [-123.098, 49.28],
};
const WAYS: OsmWriteWay[] = [
  { id: 10, refs: [2, 1], tags: { highway: 'residential' } },
  { id: 11, refs: [1, 3], tags: { highway: 'residential' } },
  { id: 12, refs: [4, 1], tags: { highway: 'residential' } },
  { id: 13, refs: [1, 5], tags: { highway: 'residential' } },
  { id: 14, refs: [7, 8], tags: { highway: 'proposed' } },
  { id: 16, refs: [3, 9], tags: { highway: 'residential' } },
  { id: 17, refs: [1, 6], tags: { highway: 'residential', oneway: 'yes' } },
];
const viaNode = (id: number, from: number, to: number, tags: Record<string, string>, via = 1): OsmWriteRelation => ({
  id,
  members: [{ type: 'way', ref: from, role: 'from' }, { type: 'node', ref: via, role: 'via' }, { type: 'way', ref: to, role: 'to' }],
  tags: { type: 'restriction', ...tags },
});
const RELATIONS: OsmWriteRelation[] = [
  viaNode(100, 12, 13, { restriction: 'no_left_turn' }), // north-bound from the south arm, left into the west arm
  viaNode(101, 13, 11, { restriction: 'only_straight_on' }), // from the west arm, straight on east only
  viaNode(102, 11, 11, { restriction: 'no_u_turn' }),
  viaNode(103, 10, 13, { restriction: 'no_right_turn', except: 'bicycle' }),
  viaNode(104, 10, 11, { restriction: 'no_left_turn' }, 3), // broken: way 10 does not reach node 3
  viaNode(105, 14, 11, { restriction: 'no_left_turn' }), // broken: way 14 is not routable
  { id: 106, members: [{ type: 'way', ref: 10, role: 'from' }, { type: 'node', ref: 1, role: 'via' }], tags: { type: 'restriction', restriction: 'no_left_turn' } },
  {
    id: 107, // via a way: counted, not applied
    members: [{ type: 'way', ref: 10, role: 'from' }, { type: 'way', ref: 11, role: 'via' }, { type: 'way', ref: 16, role: 'to' }],
    tags: { type: 'restriction', restriction: 'no_left_turn' },
  },
  viaNode(108, 17, 10, { restriction: 'no_left_turn' }), // broken: vehicles only leave node 1 by 17
  viaNode(109, 12, 10, { 'restriction:hgv': 'no_straight_on' }), // trucks …
  viaNode(110, 12, 10, { 'restriction:bicycle': 'no_straight_on' }), // … and bicycles: one pair, both bits
];

describe('turn restrictions on a small cross (PBF)', () => {
  let dir: string;
  let built: Built;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-turns-'));
    const pbf = path.join(dir, 'cross.osm.pbf');
    const w = new OsmPbfWriter(pbf, { sorted: true });
    for (const id of Object.keys(NODES).map(Number).sort((a, b) => a - b)) w.node({ id, lng: NODES[id]![0], lat: NODES[id]![1] });
    for (const way of WAYS) w.way(way);
    for (const r of RELATIONS) w.relation(r);
    w.close();
    built = await buildWithRestrictions(pbf, dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('forbids the no_* pairs and every other exit of an only_*, with the modes each binds', () => {
    expect(describeTurns(built)).toEqual([
      `4>1 1>5 ${VEHICLES}`, // 100 no_left_turn
      `5>1 1>2 ${VEHICLES}`, `5>1 1>4 ${VEHICLES}`, `5>1 1>5 ${VEHICLES}`, `5>1 1>6 ${VEHICLES}`, // 101 only_straight_on
      `3>1 1>3 ${VEHICLES}`, // 102 no_u_turn
      `2>1 1>5 ${modeMask('auto', 'truck')}`, // 103 except=bicycle
      `4>1 1>2 ${modeMask('truck', 'bicycle')}`, // 109 + 110 merged
    ].sort());
  });

  it('answers turnForbidden per mode, and allows the turns no relation names', () => {
    const e = (a: number, b: number) => edgeBetween(built, a, b);
    const forbiddenTo = (a: number, b: number) => MODES.filter((m) => built.graph.turnForbidden(a, b, modeBit(m)));
    expect(forbiddenTo(e(4, 1), e(1, 5))).toEqual(['auto', 'truck', 'bicycle']);
    expect(forbiddenTo(e(2, 1), e(1, 5))).toEqual(['auto', 'truck']);
    expect(forbiddenTo(e(4, 1), e(1, 2))).toEqual(['truck', 'bicycle']);
    expect(forbiddenTo(e(5, 1), e(1, 3))).toEqual([]); // the only_straight_on exit itself
    expect(forbiddenTo(e(4, 1), e(1, 3))).toEqual([]); // right turn from the south arm
    expect(forbiddenTo(e(2, 1), e(1, 4))).toEqual([]);
    expect(forbiddenTo(e(3, 1), e(1, 5))).toEqual([]);
  });

  it('counts and reports, with the reason, every restriction it could not place', () => {
    expect(built.turns.stats).toEqual({ restrictions: 10, applied: 6, viaWayNotApplied: 1, unplaceable: 3, forbiddenPairs: 8 });
    expect(built.usableRelations).toBe(10);
    expect(built.malformed).toEqual([{ relation: 106, reason: 'no to member' }]);
    expect(built.turns.reports).toEqual([
      { relation: 104, reason: 'from way 10 does not meet via node 3' },
      { relation: 105, reason: 'from way 14 is not in the road graph (not routable or not in the input)' },
      { relation: 107, reason: 'via ways 11: via-way restrictions are not applied' },
      { relation: 108, reason: 'from way 17 cannot be travelled into via node 1 by auto/truck/bicycle (one-way or access)' },
    ]);
  });
});

describe('turn restrictions of the GraphHopper turn-cost fixture (OSM XML)', () => {
  let dir: string;
  let built: Built;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-turns-gh-'));
    built = await buildWithRestrictions(sharedData('osm/graphhopper-test_simple_turncosts.osm.xml'), dir);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('forbids the left turn from way 1 into way 3 at node 2, and nothing else', () => {
    // Ways 1 (1→2), 111 (2→3→4), 2 (4→2), 3 (2→6→7) and 4 (6→8) are one-way; 3 is a shape point of 111, 6 a junction.
    expect(describeTurns(built)).toEqual([`1>2 2>6 ${VEHICLES}`]);
    expect(built.turns.stats).toEqual({ restrictions: 1, applied: 1, viaWayNotApplied: 0, unplaceable: 0, forbiddenPairs: 1 });
    const e = (a: number, b: number) => edgeBetween(built, a, b);
    expect(built.graph.turnForbidden(e(1, 2), e(2, 6), modeBit('auto'))).toBe(true);
    expect(built.graph.turnForbidden(e(1, 2), e(2, 6), modeBit('pedestrian'))).toBe(false);
    expect(built.graph.turnForbidden(e(1, 2), e(2, 4), modeBit('auto'))).toBe(false);
    expect(built.graph.turnForbidden(e(4, 2), e(2, 6), modeBit('auto'))).toBe(false);
  });

  it('makes a car searching with the graph\'s turn rule loop round instead of turning left; a pedestrian turns', () => {
    const node = (osm: number) => graphNodeOf(built.build, osm);
    const route = (mode: 'auto' | 'pedestrian') => {
      const model = costModel(built.graph, mode);
      const found = searchRoute(model, originAtNode(model, node(1)), destinationAtNode(model, node(6)), { turnRule: graphTurnRule(built.graph, mode) });
      const ends = (edge: number) => `${built.build.nodeOsmIds[built.graph.edgeSource(edge)]}>${built.build.nodeOsmIds[built.graph.edgeTarget(edge)]}`;
      return found ? Array.from(found.edges, ends) : null;
    };
    expect(route('auto')).toEqual(['1>2', '2>4', '4>2', '2>6']);
    expect(route('pedestrian')).toEqual(['1>2', '2>6']);
  });
});

describe('turn restrictions of the Vancouver extract', () => {
  let dir: string;
  let built: Built;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-turns-vancouver-'));
    const t0 = performance.now();
    built = await buildWithRestrictions(sharedData('osm/pelias-vancouver_canada.osm.pbf'), dir);
    console.log(`vancouver turn restrictions: ${JSON.stringify(built.turns.stats)}, ${built.usableRelations} usable relations, ` +
      `${built.malformed.length} malformed; ${(performance.now() - t0).toFixed(0)} ms with the graph build`);
    const reasons = new Map<string, number>();
    for (const r of built.turns.reports) {
      const kind = r.reason.replace(/\d+/g, 'N');
      reasons.set(kind, (reasons.get(kind) ?? 0) + 1);
    }
    console.log(`vancouver restrictions not applied: ${JSON.stringify(Object.fromEntries(reasons))}`);
  }, 120_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('places the usable restrictions and reports every other one (figures of this extract)', () => {
    const { stats, reports } = built.turns;
    expect(built.usableRelations).toBe(202);
    expect(built.malformed).toHaveLength(5);
    expect(stats).toEqual({ restrictions: 202, applied: 162, viaWayNotApplied: 2, unplaceable: 38, forbiddenPairs: 205 });
    expect(reports.length).toBe(stats.viaWayNotApplied + stats.unplaceable);
  });

  it('says "do not meet" exactly for the restrictions whose ways lack the via node in the file', async () => {
    // Oracle: the raw way refs, read the plain way.
    const refs = new Map<number, number[]>();
    await readOsm(sharedData('osm/pelias-vancouver_canada.osm.pbf'), { way: (w) => refs.set(w.id, w.refs) });
    const relations = await readTurnRestrictions(sharedData('osm/pelias-vancouver_canada.osm.pbf'));
    const apart = new Set<number>();
    for (const r of relations.restrictions) {
      if (!('node' in r.via)) continue;
      const v = r.via.node;
      if (!refs.get(r.from)?.includes(v) || !refs.get(r.to)?.includes(v)) apart.add(r.id);
    }
    const reportedApart = new Set(built.turns.reports.filter((r) => /does not meet|not a junction/.test(r.reason)).map((r) => r.relation));
    expect([...reportedApart].sort()).toEqual([...apart].sort());
    expect(apart.size).toBeGreaterThan(0);
  });

  it('writes the turn section and reads it back for turnForbidden, each pair for its modes only', async () => {
    const file = path.join(dir, 'round-trip.graph');
    await writeGraphFile(file, built.turns.arrays);
    const back = await readGraphFile(file);
    for (const name of ['turnInEdge', 'turnOutEdge', 'turnModes'] as const) {
      expect(Array.from(back[name]), name).toEqual(Array.from(built.turns.arrays[name]));
    }
    const g = built.graph;
    const { turnInEdge, turnOutEdge, turnModes } = g.arrays;
    let wrong = 0;
    for (let i = 0; i < turnInEdge.length; i++) {
      // A forbidden turn is made at one node: the in edge ends where the out edge starts.
      if (g.edgeTarget(turnInEdge[i]!) !== g.edgeSource(turnOutEdge[i]!)) wrong++;
      for (const m of MODES) if (g.turnForbidden(turnInEdge[i]!, turnOutEdge[i]!, modeBit(m)) !== ((turnModes[i]! & modeBit(m)) !== 0)) wrong++;
      // Pedestrians are never bound by the relations.
      if (turnModes[i]! & modeBit('pedestrian')) wrong++;
    }
    expect(wrong).toBe(0);
    // Pairs the table does not hold: every exit of the first restricted in edge's node that is not listed.
    const inEdge = turnInEdge[0]!;
    const { start, end } = g.edgesOf(g.edgeTarget(inEdge));
    const listed = new Set(Array.from(turnOutEdge.subarray(0, turnInEdge.lastIndexOf(inEdge) + 1)));
    for (let e = start; e < end; e++) if (!listed.has(e)) expect(g.turnForbidden(inEdge, e, 0xff)).toBe(false);
  });
});
