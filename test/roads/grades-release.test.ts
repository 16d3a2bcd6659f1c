import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraphFile } from '../../engines/routing/graph-file.ts';
import { NO_EDGE, fromMicroDegrees } from '../../engines/routing/graph-format.ts';
import { readDemFile } from '../../engines/terrain/dem-file.ts';
import { Dem } from '../../engines/terrain/dem.ts';
import { prepareTerrainRelease } from '../../ingest/terrain/release.ts';
import { roadsKind } from '../../jobs/kinds/roads.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { ROADS_GRAPH_FILE } from '../../schemas/roads-release.ts';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';

/** The demo's DEM: N48W125 at 3″, heights in lat 48–48.5 only. */
const SAMPLE = repoPath('samples/terrain/N48W125.hgt.gz');
/** A 6 × 6 street grid, 400 m apart, on the hills south of the Strait of Juan de Fuca (about −124.25, 48.1). */
const WEST = -124.27;
const SOUTH = 48.09;
const STEP_LNG = 400 / (111_195 * Math.cos((SOUTH * Math.PI) / 180));
const STEP_LAT = 400 / 111_195;
const SIZE = 6;

function gridXml(): string {
  const id = (i: number, j: number) => 1 + i * SIZE + j;
  const nodes: string[] = [];
  const ways: string[] = [];
  for (let i = 0; i < SIZE; i++) {
    for (let j = 0; j < SIZE; j++) {
      nodes.push(`<node id="${id(i, j)}" lat="${(SOUTH + i * STEP_LAT).toFixed(7)}" lon="${(WEST + j * STEP_LNG).toFixed(7)}"/>`);
    }
  }
  const way = (wayId: number, refs: number[]) =>
    `<way id="${wayId}">${refs.map((r) => `<nd ref="${r}"/>`).join('')}<tag k="highway" v="residential"/></way>`;
  for (let i = 0; i < SIZE; i++) ways.push(way(100 + i, Array.from({ length: SIZE }, (_, j) => id(i, j))));
  for (let j = 0; j < SIZE; j++) ways.push(way(200 + j, Array.from({ length: SIZE }, (_, i) => id(i, j))));
  return `<?xml version="1.0"?><osm version="0.6">${nodes.join('')}${ways.join('')}</osm>`;
}

let stack: ApiStack;
let dir: string;
let osm: string;
let terrain: RegisteredRelease;

/** A roads release as the roads job makes it: its prepare step (which looks up the enabled terrain release), then publish. */
const publishRoads = () =>
  stack.publish((workDir) => roadsKind.prepare({ osm, enable: false }, { config: stack.env.config, workDir, onProgress: () => {} }));

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-roads-grades-'));
  osm = path.join(dir, 'hills.osm');
  await writeFile(osm, gridXml());
  stack = await ApiStack.create('roads_grades');
}, 60_000);

afterAll(async () => {
  await stack?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('the roads job grades edges with the enabled terrain release', () => {
  it('leaves every grade 0 and says so when no terrain release is enabled', async () => {
    const flat = await publishRoads();
    expect(flat.manifest.stats.grades).toEqual({ terrain_release: null });
    expect(flat.manifest.inputs.map((input) => input.name)).toEqual(['osm']);
    const arrays = await readGraphFile(path.join(flat.path, ROADS_GRAPH_FILE));
    expect(arrays.edgeGrade.every((g) => g === 0)).toBe(true);
  }, 60_000);

  it('grades the edges from the DEM of the enabled terrain release and names it in the manifest', async () => {
    terrain = await stack.publish(() => prepareTerrainRelease([SAMPLE]));
    await stack.enable(terrain);
    const graded = await publishRoads();
    const stats = graded.manifest.stats.grades as Record<string, unknown>;
    const edges = graded.manifest.stats.edges as number;
    // 6 rows and 6 columns of 5 two-way segments each
    expect(edges).toBe(2 * 2 * SIZE * (SIZE - 1));
    expect(stats).toMatchObject({ terrain_release: terrain.id, edges_graded: edges, edges_without_height: 0, ferry_edges: 0 });
    expect(graded.manifest.inputs).toContainEqual(expect.objectContaining({ name: 'terrain', source: `terrain release ${terrain.id}`, sha256: terrain.contentHash }));

    const a = await readGraphFile(path.join(graded.path, ROADS_GRAPH_FILE));
    const nonZero = Array.from(a.edgeGrade).filter((g) => g !== 0);
    expect(nonZero.length).toBeGreaterThan(edges / 2);
    // each edge against the DEM read directly: (height at the target − height at the source) / length
    const dem = new Dem(await readDemFile(SAMPLE));
    for (let u = 0; u < a.firstEdge.length - 1; u++) {
      for (let e = a.firstEdge[u]!; e < a.firstEdge[u + 1]!; e++) {
        const v = a.edgeTarget[e]!;
        const [lng1, lat1, lng2, lat2] = [a.nodeLng[u]!, a.nodeLat[u]!, a.nodeLng[v]!, a.nodeLat[v]!].map(fromMicroDegrees) as [number, number, number, number];
        const rise = dem.elevationAt(lng2, lat2)! - dem.elevationAt(lng1, lat1)!;
        const expected = Math.max(-50, Math.min(50, (100 * rise) / haversineMetres(lng1, lat1, lng2, lat2)));
        expect(Math.abs(a.edgeGrade[e]! - expected), `edge ${e}`).toBeLessThanOrEqual(0.5 + 1e-6);
        if (a.edgeReverse[e] !== NO_EDGE) expect(a.edgeGrade[a.edgeReverse[e]!]).toBe(-a.edgeGrade[e]! || 0);
      }
    }
  }, 180_000);
});
