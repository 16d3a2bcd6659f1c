import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { tileIdToZxy } from 'pmtiles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../../engines/byod/geojson.ts';
import { tileGeoJsonUpload } from '../../engines/byod/tile-geojson.ts';
import { UploadCheckUnavailableError, UploadChecker } from '../../engines/byod/upload-checker.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { ByodApi } from './byod-api.ts';
import { deepGeoJson, manyEntriesLeaf, manyLeaves, paddedLeafBomb, TILE } from './bombs.ts';
import { worstLoopStall } from '../support/loop-delay.ts';

/*
 * Issue 28 (items 2 and 10): uploads whose check would cost unbounded work or memory, or whose
 * JSON nests deep enough to overflow a recursive reader, are refused with the bound they exceed,
 * store nothing, and are checked off the event loop (upload-checker.ts).
 */

let api: ByodApi;
let key: string;
let scratch: string;

beforeAll(async () => {
  api = await ByodApi.start('byod_bounds');
  key = await api.key({ accountId: 'bounded' });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-byod-bounds-'));
});
afterAll(async () => {
  await api?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function storedFiles(): Promise<string[]> {
  const top = (await readdir(api.byodDir)).filter((f) => f !== '.incoming');
  const incoming = await readdir(path.join(api.byodDir, '.incoming')).catch(() => []);
  return [...top, ...incoming.map((f) => `.incoming/${f}`)];
}


/** Uploaded as `type`, answered 400 with exactly `error`, nothing stored, the loop never held long. */
async function refusedOffLoop(body: Buffer | string, type: string, error: string): Promise<number> {
  const rows = await api.rows();
  const files = await storedFiles();
  const { result: res, worst: worstMs } = await worstLoopStall(() => api.upload(key, body, type));
  console.log(`worst loop delay while refusing: ${worstMs.toFixed(0)} ms`);
  expect(res.body).toEqual({ error });
  expect(res.status).toBe(400);
  expect(await api.rows()).toBe(rows);
  expect(await storedFiles()).toEqual(files);
  return worstMs;
}

describe('PMTiles decompression bombs', () => {
  it('refuses 150 leaf directories inflating to 32 MiB each (4.9 MB) at once, the loop free meanwhile', async () => {
    const bomb = paddedLeafBomb(150, 32 * 1024 * 1024 - 64);
    expect(bomb.length).toBeGreaterThan(4.8e6);
    const worstMs = await refusedOffLoop(bomb, 'application/vnd.pmtiles',
      'invalid PMTiles: the leaf directory decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) per directory are accepted');
    // Before the bounds it was accepted after 25 s with the event loop blocked throughout.
    expect(worstMs).toBeLessThan(500);
  }, 120_000);

  it('refuses leaf directories that stay under the per-directory bound but not the total', async () => {
    await refusedOffLoop(paddedLeafBomb(20, 4 * 1024 * 1024 - 64), 'application/vnd.pmtiles',
      'invalid PMTiles: the directories decompress to more than 16777216 bytes in all; at most 16777216 bytes (16 MiB) are accepted');
  }, 60_000);

  it('refuses an 8 KB archive of one leaf of 1,999,000 entries', async () => {
    const bomb = manyEntriesLeaf(1_999_000);
    expect(bomb.length).toBeLessThan(8_500);
    await refusedOffLoop(bomb, 'application/vnd.pmtiles',
      'invalid PMTiles: the leaf directory decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) per directory are accepted');
  }, 60_000);

  it('refuses more entries than the total, over many leaves', async () => {
    await refusedOffLoop(manyLeaves(6, 99_000), 'application/vnd.pmtiles',
      'invalid PMTiles: the directories list more than 500000 entries in all; at most 500000 are accepted');
  }, 60_000);

  it('checks an archive at the bounds (495,000 entries) off the event loop, then serves its tiles', async () => {
    const archive = manyLeaves(5, 99_000);
    const { result: res, worst: worstMs } = await worstLoopStall(() => api.upload(key, archive, 'application/vnd.pmtiles'));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ kind: 'pmtiles', status: 'ready', minzoom: 11, maxzoom: 11 });
    // The check itself takes about half a second of CPU; on the loop it stalled every request that long.
    console.log(`worst loop delay while checking 495,000 entries: ${worstMs.toFixed(0)} ms`);
    expect(worstMs).toBeLessThan(250);
    const first = zxyToTileId(11, 0, 0);
    // Tiles 0 and 400,000 of zoom 11: in the first and in the fifth leaf.
    for (const index of [0, 400_000]) {
      const [, x, y] = tileIdToZxy(first + index);
      const tile = await api.tile(key, res.body.id, 11, x, y);
      expect(tile.status).toBe(200);
      expect(tile.raw).toEqual(TILE);
    }
    expect((await api.delete(key, res.body.id)).status).toBe(204);
  }, 60_000);

  it('answers the tiles of a stored archive over the bounds (stored before they held) 400, in plain text', async () => {
    const res = await api.upload(key, manyLeaves(1, 10), 'application/vnd.pmtiles');
    expect(res.status).toBe(201);
    await writeFile(path.join(api.byodDir, `${res.body.id}.pmtiles`), manyEntriesLeaf(1_999_000));
    const tile = await api.tile(key, res.body.id, 11, 0, 0);
    expect(tile.status).toBe(400);
    expect(tile.raw.toString()).toBe(`overlay ${res.body.id} cannot be served: a directory does not inflate within 4194304 bytes; delete it`);
    expect((await api.delete(key, res.body.id)).status).toBe(204);
  }, 60_000);
});

describe('deeply nested GeoJSON', () => {
  it('refuses properties nested 2,000,000 arrays deep, naming the depth', async () => {
    const worstMs = await refusedOffLoop(deepGeoJson(2_000_000), 'application/geo+json',
      `invalid GeoJSON: the JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at byte 101); at most ${MAX_JSON_DEPTH} levels are accepted`);
    expect(worstMs).toBeLessThan(500);
  }, 60_000);

  it('refuses one level past the bound, accepts the bound, and tiles what it accepts', async () => {
    // The Feature and its properties are two levels: 62 arrays make 64.
    await refusedOffLoop(deepGeoJson(MAX_JSON_DEPTH - 1), 'application/geo+json',
      `invalid GeoJSON: the JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at byte 101); at most ${MAX_JSON_DEPTH} levels are accepted`);
    const body = deepGeoJson(MAX_JSON_DEPTH - 2);
    const res = await api.upload(key, body, 'application/geo+json');
    expect(res.status).toBe(201);
    expect((await api.delete(key, res.body.id)).status).toBe(204);
    // The tiler serializes properties recursively: what is accepted tiles.
    const source = path.join(scratch, 'deep.geojson');
    await writeFile(source, body);
    const tiled = await tileGeoJsonUpload(source, path.join(scratch, 'deep.pmtiles'));
    expect(tiled.tiles).toBeGreaterThan(0);
  }, 60_000);
});

describe('UploadChecker', () => {
  it('refuses a check over its time budget, then checks the next file on a fresh worker', async () => {
    const checker = new UploadChecker({ threads: 1, budgetMs: 50, heapMb: 256 });
    try {
      const big = path.join(scratch, 'big.geojson');
      const positions = Array.from({ length: 250_000 }, (_, i) => `[${(-123 + i / 1e6).toFixed(6)},49.25]`);
      await writeFile(big, `{"type":"MultiPoint","coordinates":[${positions.join(',')}]}`);
      const refusal = await checker.check(big, 'geojson').then(() => null, (err: Error) => err);
      expect(refusal?.name).toBe('QueryError');
      expect(refusal?.message).toBe('GeoJSON check took longer than 0.05 s, the limit for checking an upload; send a smaller or simpler file');
      const small = path.join(scratch, 'small.geojson');
      await writeFile(small, '{"type":"Point","coordinates":[-123.1,49.3]}');
      expect(await checker.check(small, 'geojson')).toBeNull();
    } finally {
      await checker.close();
    }
  }, 60_000);

  it('a check cut off by closing, or asked of a closed checker, is unavailable (a 503), never a refusal of the file or a 500', async () => {
    const checker = new UploadChecker({ threads: 1, budgetMs: 20_000, heapMb: 256 });
    const big = path.join(scratch, 'closing.geojson');
    const positions = Array.from({ length: 250_000 }, (_, i) => `[${(-123 + i / 1e6).toFixed(6)},49.25]`);
    await writeFile(big, `{"type":"MultiPoint","coordinates":[${positions.join(',')}]}`);
    const running = checker.check(big, 'geojson').then(() => null, (err: Error) => err);
    await new Promise((resolve) => setTimeout(resolve, 50));
    await checker.close();
    expect(await running).toBeInstanceOf(UploadCheckUnavailableError);
    await expect(checker.check(big, 'geojson')).rejects.toBeInstanceOf(UploadCheckUnavailableError);
  }, 60_000);
});
