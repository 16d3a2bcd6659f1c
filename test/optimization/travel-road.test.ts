import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_STRAIGHT_LINE_METRES, roadTravel } from '../../engines/optimization/travel-road.ts';
import { buildContractionHierarchy } from '../../engines/routing/contraction/build.ts';
import type { ContractionHierarchy } from '../../engines/routing/contraction/hierarchy.ts';
import { costModel } from '../../engines/routing/cost-model.ts';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { buildRoadGraph } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

// One straight highway along 52°N, about 1,240 km long, a node every 0.25° (about 17 km).
const LAT = 52;
const WEST = -121;
const STEP = 0.25;
const NODES = 73;

let dir: string;
let snap: SnapIndex;
let hierarchy: ContractionHierarchy;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-optimization-road-'));
  const nodes = Array.from({ length: NODES }, (_, i) => `<node id="${i + 1}" lat="${LAT}" lon="${(WEST + i * STEP).toFixed(4)}"/>`);
  const refs = Array.from({ length: NODES }, (_, i) => `<nd ref="${i + 1}"/>`);
  const xml = `<?xml version="1.0"?><osm version="0.6">${nodes.join('')}<way id="1">${refs.join('')}<tag k="highway" v="trunk"/><tag k="maxspeed" v="110"/></way></osm>`;
  await writeFile(path.join(dir, 'line.osm'), xml);
  const graph = buildRoadGraph(await readRoadWays(path.join(dir, 'line.osm'), wayProfile));
  await writeGraphFile(path.join(dir, 'roads.graph'), graph.arrays);
  snap = SnapIndex.build(await RoadGraph.open(path.join(dir, 'roads.graph')));
  hierarchy = buildContractionHierarchy(snap.graph).hierarchy;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('road travel for optimization', () => {
  const km = haversineMetres(0, LAT, 1, LAT) / 1000;
  const at = (distanceKm: number) => ({ latitude: LAT, longitude: WEST + distanceKm / km });

  it('treats places more than 1,000 km apart in a straight line as unreachable, though a road joins them', () => {
    const places = [at(1), at(900), at(1050), { latitude: LAT + 0.5, longitude: WEST }];
    const travel = roadTravel({ snap, hierarchy }, costModel(snap.graph, 'auto'), places);
    const size = places.length;
    const reach = (i: number, j: number) => travel.reachable[i * size + j];
    expect(haversineMetres(places[0]!.longitude, LAT, places[2]!.longitude, LAT)).toBeGreaterThan(MAX_STRAIGHT_LINE_METRES);
    expect([reach(0, 1), reach(1, 0), reach(1, 2)]).toEqual([1, 1, 1]);
    expect(travel.matrix.distances[0 * size + 1]).toBeCloseTo(899_000, -4);
    expect(travel.matrix.durations[0 * size + 1]! / 3600).toBeGreaterThan(899 / 115);
    expect([reach(0, 2), reach(2, 0)]).toEqual([0, 0]);
    // 55 km north of the road: nothing to snap to, so reachable from nowhere but itself.
    expect([reach(3, 0), reach(0, 3), reach(3, 3)]).toEqual([0, 0, 1]);
  });
});
