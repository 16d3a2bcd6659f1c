import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { once } from 'node:events';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readNdjsonFeatures } from '../../engines/tiles/ndjson.ts';
import { tileToArchive, type LayerSpec, type TilerFeature, type TilingReport } from '../../engines/tiles/tiler.ts';
import { layerFeatures, openArchive, project, type OpenArchive } from './read-archive.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

/**
 * The tiling of an NDJSON file larger than the in-memory cap: streamed through partition files it
 * must give exactly what the all-in-memory walk gives, and leave nothing behind.
 */

let dir: string;
const PARCELS = 50_000;
const parcelsSpec: LayerSpec = { id: 'parcels', minZoom: 0, maxZoom: 12 };
const routesSpec: LayerSpec = { id: 'routes', minZoom: 4, maxZoom: 10, simplification: { 4: 6, 8: 1 } };
/** First vertex of each parcel, to find it again in the tiles. */
const corners: [number, number][] = [];

// A rectangle straddling lon -90 (an edge of every tile from z2 on) and a line across many tiles.
const straddler: TilerFeature = {
  type: 'Feature', id: PARCELS + 1, properties: { i: -1, kind: 'park' },
  geometry: { type: 'Polygon', coordinates: [[[-90.6, 45.2], [-89.3, 45.2], [-89.3, 46.1], [-90.6, 46.1], [-90.6, 45.2]]] },
};
const route: TilerFeature = {
  type: 'Feature', id: 7, properties: { name: 'Trans-Canada' },
  geometry: { type: 'LineString', coordinates: Array.from({ length: 201 }, (_, i) => [-95 + i * 0.1, 46.5 + 0.2 * Math.sin(i / 7)]) },
};

async function writeParcels(file: string): Promise<void> {
  const next = random(42);
  const out = createWriteStream(file);
  const towns = Array.from({ length: 12 }, () => [-100 + next() * 30, 42 + next() * 8]);
  for (let i = 1; i <= PARCELS; i += 1) {
    const [tx, ty] = towns[Math.floor(next() * towns.length)]!;
    const [cx, cy] = [tx! + (next() - 0.5) * next() * 1.5, ty! + (next() - 0.5) * next()];
    const r = 0.0005 + next() * 0.002;
    const ring = Array.from({ length: 7 }, (_, k) => [cx + r * Math.cos((k % 6) * 1.047), cy + r * 0.7 * Math.sin((k % 6) * 1.047)]);
    corners.push(ring[0] as [number, number]);
    const feature = { type: 'Feature', id: i, properties: { i, kind: i % 3 ? 'lot' : 'farm' }, geometry: { type: 'Polygon', coordinates: [ring] } };
    if (!out.write(`${JSON.stringify(feature)}\n`)) await once(out, 'drain');
  }
  out.end(`${JSON.stringify(straddler)}\n`);
  await once(out, 'finish');
}

interface Run {
  report: TilingReport;
  file: string;
  workDir: string;
}

async function run(name: string, inMemoryFeatures?: number, threads?: number): Promise<Run> {
  const file = path.join(dir, `${name}.pmtiles`);
  const workDir = path.join(dir, `${name}-work`);
  const report = await tileToArchive({
    layers: [
      { spec: parcelsSpec, features: readNdjsonFeatures(path.join(dir, 'parcels.ndjson')) },
      { spec: routesSpec, features: [route] },
    ],
    archivePath: file, workDir, metadata: { name: 'parcels', attribution: 'test' },
    ...(inMemoryFeatures ? { inMemoryFeatures } : {}),
    ...(threads ? { threads } : {}),
  });
  return { report, file, workDir };
}

let streamed: Run;
let inMemory: Run;
let parallel: Run;
let reader: OpenArchive;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-streaming-'));
  await writeParcels(path.join(dir, 'parcels.ndjson'));
  streamed = await run('streamed', 2_000);
  inMemory = await run('in-memory');
  parallel = await run('parallel', 3_000, 2);
  reader = openArchive(streamed.file);
}, 120_000);
afterAll(async () => {
  await reader?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('tiling NDJSON larger than the in-memory cap', () => {
  it('streams the large low-zoom tiles from partitions and gives exactly the all-in-memory archive', async () => {
    expect(streamed.report.streamedTiles).toBeGreaterThan(10);
    expect(inMemory.report.streamedTiles).toBe(0);
    expect(streamed.report.inputFeatures).toBe(PARCELS + 2);
    expect(streamed.report.zooms).toEqual(inMemory.report.zooms);
    expect(streamed.report.zooms.at(-1)!.features).toBeGreaterThan(PARCELS);
    expect(Buffer.compare(await readFile(streamed.file), await readFile(inMemory.file))).toBe(0);
    const metadata = (await reader.archive.getMetadata()) as Record<string, unknown>;
    expect(metadata).toMatchObject({
      name: 'parcels', attribution: 'test', minzoom: 0, maxzoom: 12,
      vector_layers: [
        { id: 'parcels', fields: { i: 'Number', kind: 'String' }, minzoom: 0, maxzoom: 12 },
        { id: 'routes', fields: { name: 'String' }, minzoom: 4, maxzoom: 10 },
      ],
    });
    expect((await reader.archive.getHeader()).clustered).toBe(true);
  });

  it('on three threads (subtrees below z10 handed to two more), gives the same archive and report, and leaves nothing behind', async () => {
    expect(parallel.report.streamedTiles).toBeGreaterThan(10);
    expect(parallel.report.zooms).toEqual(inMemory.report.zooms);
    expect(parallel.report.dropped).toEqual(inMemory.report.dropped);
    expect(parallel.report.inputFeatures).toBe(PARCELS + 2);
    expect(Buffer.compare(await readFile(parallel.file), await readFile(inMemory.file))).toBe(0);
    expect(await readdir(parallel.workDir)).toEqual([]);
  });

  it('every sampled parcel is in its z12 tile, its corner within one tile unit', async () => {
    const other = openArchive(inMemory.file);
    try {
      for (let id = 1; id <= PARCELS; id += 997) {
        const [lon, lat] = corners[id - 1]!;
        const [x, y, lx, ly] = project(12, lon, lat);
        const tiles = [await reader.tile(12, x, y), await other.tile(12, x, y)];
        const [mine, theirs] = tiles.map((t) => layerFeatures(t, 'parcels').find((f) => f.id === id));
        expect(mine?.properties).toEqual({ i: id, kind: id % 3 ? 'lot' : 'farm' });
        expect(mine!.loadGeometry()).toEqual(theirs!.loadGeometry());
        const nearest = Math.min(...mine!.loadGeometry().flat().map((p) => Math.hypot(p.x - lx, p.y - ly)));
        expect(nearest).toBeLessThanOrEqual(1);
      }
    } finally {
      await other.close();
    }
  });

  it('features crossing partition edges are in every tile they touch, with the layers of a tile merged', async () => {
    for (const z of [3, 5, 7]) {
      const [x0, y0] = project(z, -90.6, 46.1);
      const [x1, y1] = project(z, -89.3, 45.2);
      expect(x1).toBeGreaterThan(x0); // it does cross the x edge at lon -90
      for (let x = x0; x <= x1; x += 1) {
        for (let y = y0; y <= y1; y += 1) expect(layerFeatures(await reader.tile(z, x, y), 'parcels').map((f) => f.id)).toContain(PARCELS + 1);
      }
    }
    const [xa, y] = project(8, -95, 46.5);
    const [xb] = project(8, -75, 46.5);
    let both = 0;
    for (let x = xa; x <= xb; x += 1) {
      // The line wobbles ±0.2° around 46.5°: find it in the row's tile or the one above or below.
      const found = [];
      for (const dy of [-1, 0, 1]) {
        const tile = await reader.tile(8, x, y + dy);
        found.push(...layerFeatures(tile, 'routes').map((f) => f.id));
        if (tile?.layers.routes && tile.layers.parcels) both += 1;
      }
      expect(found).toContain(7);
    }
    expect(both).toBeGreaterThan(0);
    expect(await reader.tile(11, ...project(11, -85, 46.5).slice(0, 2) as [number, number])).toSatisfy((t) => !t?.layers.routes);
  });

  it('leaves the work dir empty', async () => {
    expect(await readdir(streamed.workDir)).toEqual([]);
    expect(await readdir(inMemory.workDir)).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.endsWith('.tiledata'))).toEqual([]);
  });
});

describe('NDJSON input', () => {
  async function lines(name: string, text: string): Promise<string> {
    const file = path.join(dir, name);
    await rm(file, { force: true });
    await mkdir(dir, { recursive: true });
    const out = createWriteStream(file);
    out.end(text);
    await once(out, 'finish');
    return file;
  }
  const good = (i: number) => JSON.stringify({ type: 'Feature', id: i, properties: { i }, geometry: { type: 'Point', coordinates: [-75 + i / 100, 45] } });

  it('a bad line stops the build with its line number; nothing is left behind', async () => {
    const file = await lines('bad.ndjson', `${good(1)}\n\n${good(2)}\n{"type": "Feature", "geometry": {"type": "Point", "coordinates": [-75, 45]}\n${good(3)}\n`);
    const workDir = path.join(dir, 'bad-work');
    const archivePath = path.join(dir, 'bad.pmtiles');
    await expect(tileToArchive({
      layers: [{ spec: { id: 'p', minZoom: 0, maxZoom: 5 }, features: readNdjsonFeatures(file) }], archivePath, workDir, inMemoryFeatures: 1,
    })).rejects.toThrow(/bad\.ndjson line 4: not JSON/);
    expect(await readdir(workDir)).toEqual([]);
    expect((await readdir(dir)).filter((f) => f.startsWith('bad.pmtiles'))).toEqual([]);
  });

  it('names what is wrong with a line', async () => {
    const read = async (text: string) => {
      const features = [];
      for await (const f of readNdjsonFeatures(await lines('one.ndjson', text))) features.push(f);
      return features;
    };
    await expect(read(`${good(1)}\n{"type":"Point","coordinates":[1,2]}\n`)).rejects.toThrow(/line 2: expected a GeoJSON Feature, got a "Point" object/);
    await expect(read(`{"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[1,2],["a",3]]}}`)).rejects.toThrow(/line 1: LineString coordinates are not arrays of \[longitude, latitude\] numbers/);
    await expect(read(`${good(1)}\n${good(2)}\n[1,2]`)).rejects.toThrow(/line 3: expected a GeoJSON Feature, got \[1,2\]/);
    await expect(read(`{"type":"Feature","properties":{},"geometry":{"type":"Circle","coordinates":[1,2]}}\n`)).rejects.toThrow(/line 1: unknown geometry type "Circle"/);
  });

  it('reads GeoJSON text sequences, CRLF, blank lines, a null geometry and lines longer than a read chunk', async () => {
    const long = JSON.stringify({ type: 'Feature', properties: { text: 'x'.repeat(3 << 20) }, geometry: null });
    const features = [];
    for await (const f of readNdjsonFeatures(await lines('seq.ndjson', `\u001e${good(1)}\r\n\r\n${long}\n\u001e${good(2)}`))) features.push(f);
    expect(features.map((f) => f.id ?? (f.properties!.text as string).length)).toEqual([1, 3 << 20, 2]);
  });
});
