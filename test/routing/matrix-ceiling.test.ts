import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildContractionHierarchy } from '../../engines/routing/contraction/build.ts';
import type { ContractionHierarchy } from '../../engines/routing/contraction/hierarchy.ts';
import { costModel } from '../../engines/routing/cost-model.ts';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { travelMatrix } from '../../engines/routing/matrix.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { buildRoadGraph } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { loadConfig } from '../../lib/config.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

// A straight Prairie highway along 52°N, 320 km long, with a node every 0.05° (about 3.4 km).
const LAT = 52;
const WEST = -110;
const STEP = 0.05;
const NODES = 94;

// A road of its own half a degree north, joined to nothing.
const ISLAND = `<node id="1001" lat="${LAT + 0.5}" lon="${WEST}"/><node id="1002" lat="${LAT + 0.5}" lon="${WEST + 0.05}"/>`
  + '<way id="2"><nd ref="1001"/><nd ref="1002"/><tag k="highway" v="residential"/></way>';

let dir: string;
let snap: SnapIndex;
let hierarchy: ContractionHierarchy;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-matrix-ceiling-'));
  const nodes = Array.from({ length: NODES }, (_, i) => `<node id="${i + 1}" lat="${LAT}" lon="${(WEST + i * STEP).toFixed(4)}"/>`);
  const refs = Array.from({ length: NODES }, (_, i) => `<nd ref="${i + 1}"/>`);
  const xml = `<?xml version="1.0"?><osm version="0.6">${nodes.join('')}<way id="1">${refs.join('')}<tag k="highway" v="primary"/><tag k="maxspeed" v="100"/></way>${ISLAND}</osm>`;
  await writeFile(path.join(dir, 'line.osm'), xml);
  const graph = buildRoadGraph(await readRoadWays(path.join(dir, 'line.osm'), wayProfile));
  await writeGraphFile(path.join(dir, 'roads.graph'), graph.arrays);
  snap = SnapIndex.build(await RoadGraph.open(path.join(dir, 'roads.graph')));
  hierarchy = buildContractionHierarchy(snap.graph).hierarchy;
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe.each(['with', 'without'])('the matrix road-distance ceiling (MATRIX_MAX_KM, volume 1), %s a contraction hierarchy', (which) => {
  const network = () => ({ snap, hierarchy: which === 'with' ? hierarchy : null });
  const ceiling = loadConfig({}).matrixMaxMetres;
  const at = (km: number): [number, number] => [WEST + km / (haversineMetres(0, LAT, 1, LAT) / 1000), LAT];

  it('by default lets a 212 km trip through and fails a 300 km one', () => {
    const model = costModel(snap.graph, 'auto');
    const ok = travelMatrix(network(), model, [at(1)], [at(213)], ceiling);
    expect(ok.ok).toBe(true);
    if (ok.ok) expect(ok.matrix.metres[0]![0]).toBeCloseTo(212_000, -3);
    expect(travelMatrix(network(), model, [at(1)], [at(213), at(301)], ceiling)).toEqual({ ok: false, reason: 'too-far' });
  });

  it('fails a matrix with a point far from any road, and one with an unreachable pair', () => {
    const model = costModel(snap.graph, 'auto');
    expect(travelMatrix(network(), model, [at(1)], [[WEST, LAT + 1]], ceiling)).toEqual({ ok: false, reason: 'unsnappable' });
    expect(travelMatrix(network(), model, [at(1)], [at(2), [WEST + 0.02, LAT + 0.5]], ceiling)).toEqual({ ok: false, reason: 'unreachable' });
    expect(travelMatrix(network(), model, [at(1)], [at(2)], ceiling).ok).toBe(true);
  });
});
