import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { PMTiles, zxyToTileId as readerTileId } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileSource } from '../../engines/tiles/pmtiles/file-source.ts';
import { Compression, TileType } from '../../engines/tiles/pmtiles/header.ts';
import { tileIdToZxy, zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';

let dir: string;
const sources: FileSource[] = [];

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-pmtiles-'));
});
afterAll(async () => {
  for (const s of sources) await s.close();
  await rm(dir, { recursive: true, force: true });
});

function reader(file: string): PMTiles {
  const source = new FileSource(file);
  sources.push(source);
  return new PMTiles(source);
}

/** A deterministic payload per tile (or per `key`), gzip-compressed as an MVT archive stores it. */
const payload = (key: string) => Buffer.from(`tile ${key} `.repeat(3));
const text = (data: ArrayBuffer | undefined) => (data ? Buffer.from(data).toString() : undefined);

/** A small deterministic PRNG, so a failure can be replayed. */
function random(seed: number): () => number {
  return () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
}

describe('tile ids', () => {
  it('are the PMTiles Hilbert ids, both ways', () => {
    expect([[0, 0, 0], [1, 0, 0], [1, 0, 1], [1, 1, 1], [1, 1, 0], [2, 0, 0]].map(([z, x, y]) => zxyToTileId(z!, x!, y!))).toEqual([0, 1, 2, 3, 4, 5]);
    const next = random(7);
    for (let i = 0; i < 20_000; i += 1) {
      const z = Math.floor(next() * 27);
      const n = 2 ** z;
      const [x, y] = [Math.floor(next() * n), Math.floor(next() * n)];
      const id = zxyToTileId(z, x, y);
      expect(id).toBe(readerTileId(z, x, y));
      expect(tileIdToZxy(id)).toEqual([z, x, y]);
    }
    expect(() => zxyToTileId(3, 8, 0)).toThrow(/outside its zoom's grid/);
    expect(() => zxyToTileId(27, 0, 0)).toThrow(/outside 0-26/);
    expect(() => zxyToTileId(2, 1.5, 0)).toThrow(RangeError);
  });
});

describe('PMTilesWriter', () => {
  it('writes an archive the pmtiles reader reads back: tiles, header, metadata, missing tiles', async () => {
    const file = path.join(dir, 'small.pmtiles');
    const writer = await PMTilesWriter.create(file);
    const tiles: [number, number, number][] = [];
    for (let z = 0; z <= 3; z += 1) for (let x = 0; x < 2 ** z; x += 1) for (let y = 0; y < 2 ** z; y += 1) if ((x + y) % 3 !== 1) tiles.push([z, x, y]);
    tiles.sort((a, b) => zxyToTileId(...a) - zxyToTileId(...b));
    // Every fourth tile repeats one shared payload (stored once); the rest are distinct.
    const keyOf = ([z, x, y]: [number, number, number], i: number) => (i % 4 === 0 ? 'shared' : `${z}/${x}/${y}`);
    for (const [i, t] of tiles.entries()) await writer.addTile(...t, gzipSync(payload(keyOf(t, i))));
    const summary = await writer.finish({
      metadata: { name: 'test', vector_layers: [{ id: 'parks', fields: { name: 'String' }, minzoom: 0, maxzoom: 3 }] },
      bounds: { minLon: -141, minLat: 41.6, maxLon: -52.6, maxLat: 83.1 },
      center: [-96, 60, 2],
    });
    const distinct = new Set(tiles.map((t, i) => keyOf(t, i))).size;
    expect(summary).toMatchObject({ addressedTiles: tiles.length, tileContents: distinct, clustered: true, minZoom: 0, maxZoom: 3, leafDirectories: 0 });
    expect(await readdir(dir)).not.toContain('small.pmtiles.tiledata');

    const archive = reader(file);
    const header = await archive.getHeader();
    expect(header).toMatchObject({
      specVersion: 3, numAddressedTiles: tiles.length, numTileContents: distinct, clustered: true,
      internalCompression: Compression.gzip, tileCompression: Compression.gzip, tileType: TileType.mvt,
      minZoom: 0, maxZoom: 3, minLon: -141, minLat: 41.6, maxLon: -52.6, maxLat: 83.1, centerZoom: 2, centerLon: -96, centerLat: 60,
    });
    const metadata = (await archive.getMetadata()) as Record<string, unknown>;
    expect(metadata).toMatchObject({ name: 'test', vector_layers: [{ id: 'parks' }], bounds: [-141, 41.6, -52.6, 83.1], center: [-96, 60, 2], minzoom: 0, maxzoom: 3 });
    for (const [i, t] of tiles.entries()) expect(text((await archive.getZxy(...t))?.data)).toBe(payload(keyOf(t, i)).toString());
    expect(await archive.getZxy(1, 0, 1)).toBeUndefined(); // (0 + 1) % 3 === 1: never written
    expect(await archive.getZxy(4, 0, 0)).toBeUndefined(); // beyond the max zoom
  });

  it('stores runs of one content as one entry, and derives bounds and center from the tiles', async () => {
    const file = path.join(dir, 'runs.pmtiles');
    const writer = await PMTilesWriter.create(file);
    const ocean = gzipSync(payload('ocean'));
    // 4,096 tiles of zoom 12 in Hilbert order: ids 0x..0x+4095 consecutive, all the same bytes.
    const first = zxyToTileId(12, 0, 0);
    for (let id = first; id < first + 4096; id += 1) await writer.addTile(...tileIdToZxy(id), ocean);
    const summary = await writer.finish();
    expect(summary).toMatchObject({ addressedTiles: 4096, tileEntries: 1, tileContents: 1, clustered: true });
    const header = await reader(file).getHeader();
    expect(header).toMatchObject({ numAddressedTiles: 4096, numTileEntries: 1, numTileContents: 1, minZoom: 12, maxZoom: 12, centerZoom: 12 });
    expect(header.minLon).toBeCloseTo(-180, 5);
    expect(header.maxLat).toBeCloseTo(85.0511287, 5);
    expect(summary.bytes).toBeLessThan(400);
  });

  it('more than 100,000 tiles in random order: leaf directories, not clustered, every tile found', async () => {
    const file = path.join(dir, 'big.pmtiles');
    const writer = await PMTilesWriter.create(file);
    const tiles: [number, number, number][] = [];
    for (let z = 0; z <= 8; z += 1) for (let x = 0; x < 2 ** z; x += 1) for (let y = 0; y < 2 ** z; y += 1) tiles.push([z, x, y]);
    for (let x = 0; x < 512; x += 1) for (let y = 0; y < 40; y += 1) tiles.push([9, x, y]);
    const next = random(11);
    for (let i = tiles.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [tiles[i], tiles[j]] = [tiles[j]!, tiles[i]!];
    }
    for (const t of tiles) await writer.addTile(...t, gzipSync(payload(t.join('/'))));
    const summary = await writer.finish();
    expect(tiles.length).toBeGreaterThan(100_000);
    expect(summary).toMatchObject({ addressedTiles: tiles.length, tileEntries: tiles.length, tileContents: tiles.length, clustered: false, minZoom: 0, maxZoom: 9 });
    expect(summary.leafDirectories).toBeGreaterThan(1);

    const archive = reader(file);
    const header = await archive.getHeader();
    expect(header).toMatchObject({ numAddressedTiles: tiles.length, clustered: false });
    expect(header.leafDirectoryLength).toBeGreaterThan(0);
    // Every tile of zoom 9 written (across every leaf) and a random sample of the rest.
    const check = [...tiles.filter((t) => t[0] === 9), ...tiles.slice(0, 3000)];
    for (const t of check) expect(text((await archive.getZxy(...t))?.data)).toBe(payload(t.join('/')).toString());
    expect(await archive.getZxy(9, 0, 40)).toBeUndefined();
    expect(await archive.getZxy(9, 511, 511)).toBeUndefined();
  });

  it('refuses a tile added twice, an empty tile and an empty archive; abort leaves nothing', async () => {
    const inOrder = await PMTilesWriter.create(path.join(dir, 'twice.pmtiles'));
    await inOrder.addTile(3, 1, 1, gzipSync(payload('a')));
    await expect(inOrder.addTile(3, 1, 1, gzipSync(payload('b')))).rejects.toThrow(/already added/);
    await expect(inOrder.addTile(3, 2, 1, new Uint8Array())).rejects.toThrow(/empty/);
    await inOrder.abort();

    const shuffled = await PMTilesWriter.create(path.join(dir, 'twice-unordered.pmtiles'));
    await shuffled.addTile(3, 5, 5, gzipSync(payload('a')));
    await shuffled.addTile(2, 1, 1, gzipSync(payload('b')));
    await shuffled.addTile(3, 5, 5, gzipSync(payload('c')));
    await expect(shuffled.finish()).rejects.toThrow(/3\/5\/5 was added twice/);
    await shuffled.abort();

    const empty = await PMTilesWriter.create(path.join(dir, 'empty.pmtiles'));
    await expect(empty.finish()).rejects.toThrow(/at least one tile/);
    await empty.abort();
    expect((await readdir(dir)).filter((f) => /twice|empty/.test(f))).toEqual([]);
  });
});
