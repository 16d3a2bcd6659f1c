import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { buildRoadGraph, edgesOfWay, graphNodeOf, type RoadGraphBuild } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import type { OsmTags } from '../../ingest/osm/pbf-primitive-block.ts';
import { MODES, type RoadClass, type WayProfile } from '../../ingest/roads/way-profile.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { OsmPbfWriter } from '../../samples/geocoding/pbf-writer.ts';

const CLASSES = new Set<string>(['primary', 'residential', 'service', 'footway']);

/** A test stand-in for wayProfile: a few highway classes, route=ferry, oneway=yes one way except on foot. */
function stubProfile(tags: OsmTags): WayProfile | null {
  const ferry = tags.route === 'ferry';
  if (!ferry && !CLASSES.has(tags.highway ?? '')) return null;
  const footOnly = tags.highway === 'footway';
  const oneway = tags.oneway === 'yes';
  const access = Object.fromEntries(MODES.map((m) => {
    const allowed = !footOnly || m === 'pedestrian';
    return [m, { forward: allowed, backward: allowed && (!oneway || m === 'pedestrian') }];
  })) as WayProfile['access'];
  return {
    roadClass: (ferry ? 'ferry' : tags.highway) as RoadClass,
    link: false,
    access,
    speedKmh: ferry ? { auto: 5, truck: 5 } : { auto: 50, truck: 40 },
    toll: tags.toll === 'yes',
    ferry,
    ferrySeconds: tags.duration ? Number(tags.duration) : null,
    bridge: tags.bridge === 'yes',
    tunnel: false,
    truck: { maxHeight: tags.maxheight ? Number(tags.maxheight) : null, maxWidth: null, maxLength: null, maxWeight: null, maxAxleLoad: null },
    truckRoute: false,
    hazmatForbidden: false,
    name: tags.name ?? null,
    ref: tags.ref ?? null,
  };
}

// id → [lng, lat]; node 99 is referenced but not in the file (an extract boundary).
const NODES: Record<number, [number, number]> = {
  1: [-123.1, 49.28], 2: [-123.099, 49.28], 3: [-123.098, 49.28], 20: [-123.0975, 49.28], 4: [-123.097, 49.28],
  5: [-123.099, 49.281], 6: [-123.099, 49.279], 7: [-123.098, 49.2805], 8: [-123.098, 49.281],
  9: [-123.096, 49.28], 10: [-123.096, 49.281], 11: [-123.097, 49.281],
  12: [-123.095, 49.28], 13: [-123.094, 49.28], 14: [-123.094, 49.281], 15: [-123.093, 49.281], 16: [-123.093, 49.28],
  21: [-123.0975, 49.279], 22: [-123.0975, 49.282], 23: [-123.0965, 49.282], 24: [-123.099, 49.278],
  25: [-123.099, 49.27], 26: [-123.099, 49.26], 27: [-123.098, 49.27], 28: [-123.1, 49.26], 29: [-123.1, 49.25],
};

const WAYS: { id: number; refs: number[]; tags: Record<string, string> }[] = [
  { id: 100, refs: [1, 2, 3, 20, 4], tags: { highway: 'residential', name: 'Rue Saint-Édouard' } },
  { id: 101, refs: [5, 2, 6], tags: { highway: 'primary', oneway: 'yes', ref: '99', maxheight: '3.85', toll: 'yes' } },
  { id: 102, refs: [3, 7, 8, 8], tags: { highway: 'service' } }, // dead end (8 repeated back to back)
  { id: 103, refs: [4, 9, 10, 11, 4], tags: { highway: 'residential', name: 'Loop' } }, // closed way
  { id: 104, refs: [12, 13, 14, 15, 13, 16], tags: { highway: 'residential' } }, // touches itself at 13
  { id: 105, refs: [20, 21], tags: { highway: 'proposed' } }, // not routable: 20 stays a shape point
  { id: 106, refs: [8, 99, 22, 23], tags: { highway: 'service' } }, // cut at the missing node
  { id: 107, refs: [6, 24], tags: { highway: 'footway', bridge: 'yes' } },
  { id: 108, refs: [24, 25, 26], tags: { route: 'ferry', duration: '600' } }, // split at 25 by way 109
  { id: 109, refs: [25, 27], tags: { highway: 'footway' } },
  { id: 110, refs: [26, 28, 29], tags: { route: 'ferry' } }, // no duration: length at 5 km/h
];

const lengthOf = (ids: number[]) =>
  ids.slice(1).reduce((sum, id, i) => sum + haversineMetres(...NODES[ids[i]!]!, ...NODES[id]!), 0);

/** Edge as [OSM ids along it, access bits]. */
function describeEdges(g: RoadGraph, build: RoadGraphBuild): string[] {
  const idAt = new Map(Object.entries(NODES).map(([id, c]) => [`${c[0].toFixed(6)},${c[1].toFixed(6)}`, Number(id)]));
  const out: string[] = [];
  for (let e = 0; e < g.edgeCount; e++) {
    const ids = g.edgeShape(e).map(([lng, lat]) => idAt.get(`${lng.toFixed(6)},${lat.toFixed(6)}`));
    expect(ids[0]).toBe(build.nodeOsmIds[g.edgeSource(e)]);
    out.push(`${ids.join('-')} ${g.arrays.edgeAccess[e]}`);
  }
  return out.sort();
}

describe('buildRoadGraph on a small OSM file', () => {
  let dir: string;
  let build: RoadGraphBuild;
  let g: RoadGraph;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-graph-build-'));
    const pbf = path.join(dir, 'roads.osm.pbf');
    const w = new OsmPbfWriter(pbf, { sorted: true });
    for (const id of Object.keys(NODES).map(Number).sort((a, b) => a - b)) w.node({ id, lng: NODES[id]![0], lat: NODES[id]![1] });
    for (const way of WAYS) w.way(way);
    w.close();
    build = buildRoadGraph(await readRoadWays(pbf, stubProfile));
    await writeGraphFile(path.join(dir, 'roads.graph'), build.arrays);
    g = await RoadGraph.open(path.join(dir, 'roads.graph'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('makes graph nodes of way ends and shared nodes only, numbered by OSM id', () => {
    expect(Array.from(build.nodeOsmIds)).toEqual([1, 2, 3, 4, 5, 6, 8, 12, 13, 16, 22, 23, 24, 25, 26, 27, 29]);
    expect([graphNodeOf(build, 20), graphNodeOf(build, 7), graphNodeOf(build, 99), graphNodeOf(build, 13)]).toEqual([-1, -1, -1, 8]);
    expect(build.stats).toMatchObject({ ways: 10, segments: 16, nodes: 17, edges: 32, shapePoints: 8, missingNodes: 1 });
  });

  it('gives one directed edge per usable direction, with its shape points and access bits', () => {
    expect(describeEdges(g, build)).toEqual([
      '1-2 15', '2-1 15', '2-3 15', '3-2 15', '3-20-4 15', '4-20-3 15', // way 100
      '5-2 15', '2-5 8', '2-6 15', '6-2 8', // oneway 101: against it on foot only
      '3-7-8 15', '8-7-3 15', // dead end 102
      '4-9-10-11-4 15', '4-11-10-9-4 15', // closed way 103: a loop at 4
      '12-13 15', '13-12 15', '13-14-15-13 15', '13-15-14-13 15', '13-16 15', '16-13 15', // 104
      '22-23 15', '23-22 15', // what 106 keeps
      '6-24 8', '24-6 8', '25-27 8', '27-25 8', // footways
      '24-25 15', '25-24 15', '25-26 15', '26-25 15', '26-28-29 15', '29-28-26 15', // ferries
    ].sort());
  });

  it('measures every edge by haversine along its shape and pairs both directions', () => {
    for (let e = 0; e < g.edgeCount; e++) {
      const shape = g.edgeShape(e);
      let metres = 0;
      for (let i = 1; i < shape.length; i++) metres += haversineMetres(...shape[i - 1]!, ...shape[i]!);
      expect(g.arrays.edgeLength[e]).toBeCloseTo(metres, 3);
      const r = g.reverseEdge(e);
      expect(r, `edge ${e}`).not.toBeNull();
      expect(g.reverseEdge(r!)).toBe(e);
      expect(g.edgeShape(r!)).toEqual(shape.slice().reverse());
      expect(g.hasFlag(e, 'reversed')).toBe(!g.hasFlag(r!, 'reversed'));
    }
    const [main] = edgesOfWay(build, 100);
    expect(g.arrays.edgeLength[main!]).toBeCloseTo(lengthOf([1, 2]), 3);
  });

  it('lists the edges of each way along it, forward before backward', () => {
    const ends = (way: number) => Array.from(edgesOfWay(build, way)).map((e) => `${build.nodeOsmIds[g.edgeSource(e)]}>${build.nodeOsmIds[g.edgeTarget(e)]}`);
    expect(ends(101)).toEqual(['5>2', '2>5', '2>6', '6>2']);
    expect(ends(103)).toEqual(['4>4', '4>4']);
    expect(ends(106)).toEqual(['22>23', '23>22']);
    expect([ends(105), ends(424242)]).toEqual([[], []]);
  });

  it('stores names, refs, classes, flags, speeds and truck limits per edge', () => {
    const [fwd, back] = edgesOfWay(build, 101);
    expect([g.edgeName(fwd!), g.edgeRef(fwd!), g.roadClass(fwd!), g.hasFlag(fwd!, 'toll'), g.hasFlag(fwd!, 'bridge')]).toEqual([null, '99', 'primary', true, false]);
    expect([g.allows(fwd!, 'auto'), g.allows(back!, 'auto'), g.allows(back!, 'pedestrian')]).toEqual([true, false, true]);
    expect(g.edgeTruckLimits(back!).maxHeight).toBe(3.8);
    expect([g.arrays.edgeSpeedAuto[fwd!], g.arrays.edgeSpeedTruck[fwd!]]).toEqual([50, 40]);
    const [main] = edgesOfWay(build, 100);
    expect([g.edgeName(main!), g.edgeRef(main!), g.hasFlag(main!, 'toll')]).toEqual(['Rue Saint-Édouard', null, false]);
    const [foot] = edgesOfWay(build, 107);
    expect([g.roadClass(foot!), g.hasFlag(foot!, 'bridge'), g.arrays.edgeFerrySeconds[foot!]]).toEqual(['footway', true, 0]);
  });

  it('spreads a ferry duration over its segments by length, else times it at its speed', () => {
    const [a, , b] = edgesOfWay(build, 108);
    const la = lengthOf([24, 25]);
    const lb = lengthOf([25, 26]);
    expect(g.hasFlag(a!, 'ferry')).toBe(true);
    expect(g.arrays.edgeFerrySeconds[a!]).toBeCloseTo((600 * la) / (la + lb), 2);
    expect(g.arrays.edgeFerrySeconds[b!]).toBeCloseTo((600 * lb) / (la + lb), 2);
    const [c, d] = edgesOfWay(build, 110);
    expect(g.arrays.edgeFerrySeconds[c!]).toBeCloseTo((lengthOf([26, 28, 29]) * 3.6) / 5, 2);
    expect(g.arrays.edgeFerrySeconds[d!]).toBe(g.arrays.edgeFerrySeconds[c!]);
  });
});
