/**
 * Catalog serving through the full stack (auth, rate limit, metering) of `canmap serve`:
 *
 * 1. 5,000 complex polygons (100–800 vertices, every third with a hole; complex-polygons.ts) built
 *    into a catalog release (one identify-capable, queryable layer, z0–14) and enabled;
 * 2. overlay tiles at 64 connections over tiles sampled at z10–14, beside an in-process loop reading
 *    the same tiles at the same concurrency: the `pmtiles` reader's getZxy (which also gunzips) and
 *    our raw TileArchive reads (what the API sends: no gunzip), both printed as ratios;
 * 3. /identify at random points and /data/query over random boxes, 16 connections each.
 *
 * Targets (issue "Tiles and catalog"): tiles ≥ 3,000/s with p95 ≤ 20 ms; identify p95 ≤ 10 ms;
 * data/query p95 ≤ 20 ms.
 *
 *   npm run bench:catalog:serve [-- --duration 15]
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PMTiles } from 'pmtiles';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import { FileSource } from '../../engines/tiles/pmtiles/file-source.ts';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { loadPaths, type LoadResult } from '../geocoding/load.ts';
import { freePort, startCanmap } from '../support/processes.ts';
import { readLoop } from '../support/read-loop.ts';
import { BENCH_GRID, writeComplexPolygons } from './complex-polygons.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';

const TARGETS = { tilesPerSecond: 3000, tileP95: 20, identifyP95: 10, queryP95: 20 };
const LAYER = 'bench.areas';

const { values } = parseArgs({ options: { duration: { type: 'string', default: '15' } } });
const seconds = Number(values.duration);

const env = await createTestEnv('bench_catalog_serve');
const pool = createPool(env.config.databaseUrl, 2);
const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-catalog-'));
let server: ReturnType<typeof startCanmap> | null = null;
try {
  const input = path.join(dir, 'areas.ndjson');
  const vertices = await writeComplexPolygons(input, BENCH_GRID);
  const definition = path.join(dir, 'bench.catalog.json');
  await writeFile(definition, JSON.stringify({
    layers: [{
      id: LAYER, display_name: { en: 'Benchmark areas', fr: 'Zones de banc d\'essai' }, namespace: 'bench', source: 'generated', source_url: '', licence: '', attribution: '',
      coverage: '', resolution: '', source_updated_at: '', freshness_policy: '', known_gaps: '', schema_version: '1', addon: 'core', identify: true, query: true,
      source_layers: [{ id: 'areas', minzoom: 0, maxzoom: 14, input: { kind: 'ndjson', path: input } }],
    }],
  }));
  const built = performance.now();
  const spec = await prepareCatalogRelease(definition, { workDir: dir });
  const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
  const buildSeconds = (performance.now() - built) / 1000;
  await enableRelease(pool, release.id, 'bench');
  const key = (await createKey(pool, {})).key;
  console.log(`catalog: 5,000 polygons, ${vertices.toLocaleString('en-US')} vertices, built in ${buildSeconds.toFixed(1)} s (release ${release.id})`);

  const port = await freePort();
  server = startCanmap(['serve'], { ...env.env, PORT: String(port), LOG_LEVEL: 'warn' });
  const url = `http://127.0.0.1:${port}`;
  for (let ready = false; !ready;) {
    await new Promise((r) => setTimeout(r, 200));
    ready = await fetch(`${url}/layers`, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status === 200, () => false);
  }

  const next = seededRandom(7);
  const inGrid = (): [number, number] => [BENCH_GRID.west + next() * BENCH_GRID.columns * BENCH_GRID.cell, BENCH_GRID.south + next() * BENCH_GRID.rows * BENCH_GRID.cell];
  const archivePath = path.join(release.path, 'archives', `${LAYER}.pmtiles`);
  const archive = await TileArchive.open(archivePath);
  const tiles: [number, number, number][] = [];
  while (tiles.length < 2000) {
    const z = 10 + Math.floor(next() * 5);
    const [x, y] = tileContaining(...inGrid(), z);
    if (await archive.tile(z, x, y)) tiles.push([z, x, y]);
  }
  const reader = new PMTiles(new FileSource(archivePath));
  const pmtilesRate = await readLoop(tiles, 64, seconds, ([z, x, y]) => reader.getZxy(z, x, y));
  const rawRate = await readLoop(tiles, 64, seconds, ([z, x, y]) => archive.tile(z, x, y));

  const headers = { authorization: `Bearer ${key}` };
  const load = (paths: string[], connections: number) => loadPaths(paths, { url, headers: {}, connections, seconds });
  const tileLoad = await load(tiles.map(([z, x, y]) => `/layers/${LAYER}/${z}/${x}/${y}?key=${key}`), 64);
  const points = Array.from({ length: 2000 }, () => inGrid().map((v) => v.toFixed(5)).join(','));
  const identify = await loadPaths(points.map((p) => `/identify?at=${p}&layers=${LAYER}`), { url, headers, connections: 16, seconds });
  const boxes = Array.from({ length: 2000 }, () => {
    const [w, s] = inGrid();
    const size = 0.02 + next() * 0.08;
    return `/data/query?layer=${LAYER}&bbox=${w.toFixed(4)},${s.toFixed(4)},${(w + size).toFixed(4)},${(s + size * 0.7).toFixed(4)}`;
  });
  const query = await loadPaths(boxes, { url, headers, connections: 16, seconds });

  const line = (label: string, r: LoadResult) =>
    `${label.padEnd(34)} ${r.rps.toFixed(0).padStart(7)}/s  p50 ${r.p50.toFixed(1).padStart(5)} ms  p95 ${r.p95.toFixed(1).padStart(5)} ms  p99 ${r.p99.toFixed(1).padStart(5)} ms  failed ${r.failed}  ${r.meanBytes.toFixed(0)} B`;
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');
  console.log(`\nmachine: ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(0)} GiB; ${seconds} s per run`);
  console.log(`in-process ceiling, 64 at once: pmtiles getZxy ${pmtilesRate.toFixed(0)} tiles/s, raw TileArchive reads ${rawRate.toFixed(0)} tiles/s`);
  console.log(line('GET /layers/{id}/{z}/{x}/{y} @64', tileLoad));
  console.log(line('GET /identify @16', identify));
  console.log(line('GET /data/query @16', query));
  console.log(`\ntiles through the full stack / in-process pmtiles read loop: ${(tileLoad.rps / pmtilesRate).toFixed(2)}×; / raw archive reads: ${(tileLoad.rps / rawRate).toFixed(2)}×`);
  console.log(`tiles ≥ ${TARGETS.tilesPerSecond}/s: ${verdict(tileLoad.rps >= TARGETS.tilesPerSecond)}; tile p95 ≤ ${TARGETS.tileP95} ms: ${verdict(tileLoad.p95 <= TARGETS.tileP95)}`);
  console.log(`identify p95 ≤ ${TARGETS.identifyP95} ms: ${verdict(identify.p95 <= TARGETS.identifyP95)}; data/query p95 ≤ ${TARGETS.queryP95} ms: ${verdict(query.p95 <= TARGETS.queryP95)}`);
  await archive.close();
} finally {
  await server?.stop();
  await pool.end();
  await env.cleanup();
  await rm(dir, { recursive: true, force: true });
}
