import { copyFile, mkdtemp, rm, stat, truncate } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HotTiles } from '../../engines/tiles/hot-tiles.ts';
import { TileArchive } from '../../engines/tiles/pmtiles/archive-reader.ts';
import { tileIdToZxy, zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';

const KB = 1024;
const bytes = (n: number, fill = 1) => Buffer.alloc(n, fill);

describe('HotTiles', () => {
  it('keeps served tiles within the budget, least recently used out first', () => {
    const hot = new HotTiles(160 * KB); // a tile may take up to 1/16 of it: 10 kB
    const a = hot.slot();
    for (let id = 0; id < 40; id++) hot.set(a, id, bytes(8 * KB, id));
    const { keptBytes, keptTiles } = hot.stats();
    expect(keptBytes).toBeLessThanOrEqual(160 * KB);
    expect(keptTiles).toBe(19); // 19 × (8 kB + overhead) fit, the 20th does not
    expect(hot.get(a, 0)).toBeUndefined();
    expect(hot.get(a, 39)?.[0]).toBe(39);
    // Reading 21 makes it recent: the next tile pushes out 22, not 21.
    expect(hot.get(a, 21)?.[0]).toBe(21);
    hot.set(a, 40, bytes(8 * KB, 40));
    expect(hot.get(a, 21)).toBeDefined();
    expect(hot.get(a, 22)).toBeUndefined();
  });

  it('tells "no tile here" (null) from "not kept" (undefined), per archive', () => {
    const hot = new HotTiles(1024 * KB);
    const [a, b] = [hot.slot(), hot.slot()];
    hot.set(a, 5, null);
    expect(hot.get(a, 5)).toBeNull();
    expect(hot.get(b, 5)).toBeUndefined();
    hot.set(b, 5, bytes(10));
    expect(hot.get(b, 5)?.length).toBe(10);
    expect(hot.get(a, 5)).toBeNull();
  });

  it('does not keep a tile over 1/16 of its room, and keeps nothing with a budget of 0', () => {
    const hot = new HotTiles(160 * KB);
    const a = hot.slot();
    hot.set(a, 1, bytes(11 * KB));
    expect(hot.get(a, 1)).toBeUndefined();
    const none = new HotTiles(0);
    const s = none.slot();
    none.set(s, 1, bytes(10));
    expect(none.get(s, 1)).toBeUndefined();
    expect(none.reserveResident(1)).toBe(false);
  });

  it('reserves whole archives up to a quarter of the budget each, within the budget, and gives the rest to kept tiles', () => {
    const hot = new HotTiles(1000 * KB);
    expect(hot.reserveResident(251 * KB)).toBe(false);
    expect([1, 2, 3, 4].map(() => hot.reserveResident(240 * KB))).toEqual([true, true, true, true]);
    expect(hot.reserveResident(50 * KB)).toBe(false);
    // 40 kB of room left: a kept tile may take 1/16 of it.
    const a = hot.slot();
    hot.set(a, 1, bytes(3 * KB));
    expect(hot.get(a, 1)).toBeUndefined();
    hot.set(a, 1, bytes(2 * KB));
    expect(hot.get(a, 1)).toBeDefined();
    // Closing an archive returns its reservation and drops its tiles only.
    const b = hot.slot();
    hot.set(b, 1, bytes(2 * KB));
    hot.close(a, 240 * KB);
    expect(hot.get(a, 1)).toBeUndefined();
    expect(hot.get(b, 1)).toBeDefined();
    expect(hot.stats().residentBytes).toBe(720 * KB);
    hot.set(a, 2, bytes(10)); // a closed slot keeps nothing
    expect(hot.stats().keptTiles).toBe(1);
  });

  it('evicts kept tiles when a whole archive takes their room', () => {
    const hot = new HotTiles(1600 * KB);
    const a = hot.slot();
    for (let id = 0; id < 15; id++) hot.set(a, id, bytes(90 * KB));
    expect(hot.stats().keptTiles).toBe(15);
    expect(hot.reserveResident(400 * KB)).toBe(true);
    expect(hot.stats().keptBytes).toBeLessThanOrEqual(1200 * KB);
    expect(hot.get(a, 0)).toBeUndefined();
    expect(hot.get(a, 14)).toBeDefined();
  });
});

describe('TileArchive with hot tiles', () => {
  let dir: string;
  let file: string;
  // Over 100,000 tiles at irregular ids, so the archive has leaf directories; a tile's bytes name it.
  const tiles: number[] = [];
  const payload = (id: number) => gzipSync(Buffer.from(`tile ${id} `.repeat(1 + ((id * 7919) % 23))));

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-hot-tiles-'));
    file = path.join(dir, 'big.pmtiles');
    const writer = await PMTilesWriter.create(file);
    let seed = 5;
    for (let id = zxyToTileId(9, 0, 0); tiles.length < 110_000; id += 1 + ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) % 5)) tiles.push(id);
    for (const id of tiles) await writer.addTile(...tileIdToZxy(id), payload(id));
    expect((await writer.finish()).leafDirectories).toBeGreaterThan(0);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const sample = () => [0, 1, 2, 99, 5_000, 54_321, 109_999].map((i) => tiles[i]!);
  // Ids of zoom 9 between written tiles, not written.
  const missing = () => tiles.slice(0, 50).filter((id, i) => tiles[i + 1]! > id + 1).slice(0, 2).map((id) => id + 1);

  async function answers(archive: TileArchive): Promise<(string | null)[]> {
    const ids = [...sample(), ...missing()];
    return Promise.all(ids.map(async (id) => (await archive.tile(...tileIdToZxy(id)))?.toString('base64') ?? null));
  }

  it('answers the same bytes held whole, with kept tiles, and read from the file every time', async () => {
    const size = (await stat(file)).size;
    const whole = new HotTiles(size * 4 + 1);
    const kept = new HotTiles(size * 2);
    const none = new HotTiles(0);
    const archives = await Promise.all([whole, kept, none].map((hot) => TileArchive.open(file, hot)));
    expect(archives.map((a) => a.resident)).toEqual([true, false, false]);
    expect(whole.stats().residentBytes).toBe(size);
    expect(missing()).toHaveLength(2);
    const expected = [...sample().map((id) => payload(id).toString('base64')), ...missing().map(() => null)];
    for (const archive of archives) {
      expect(await answers(archive)).toEqual(expected);
      expect(await answers(archive)).toEqual(expected); // the second time from what was kept
    }
    expect(kept.stats()).toMatchObject({ keptTiles: 9, hits: 9, misses: 9 });
    expect(whole.stats()).toMatchObject({ keptTiles: 0, hits: 0, misses: 0 }); // slices of the whole file, never looked up
    expect(none.stats().keptTiles).toBe(0);
    await Promise.all(archives.map((a) => a.close()));
    expect(whole.stats()).toMatchObject({ residentBytes: 0, keptTiles: 0 });
    expect(kept.stats()).toMatchObject({ residentBytes: 0, keptTiles: 0 });
  });

  it('serves a kept tile without its file, and reads one it did not keep', async () => {
    const copy = path.join(dir, 'copy.pmtiles');
    await copyFile(file, copy);
    const hot = new HotTiles((await stat(copy)).size * 2);
    const archive = await TileArchive.open(copy, hot);
    const [first, second] = [tiles[10]!, tiles[100_000]!];
    expect((await archive.tile(...tileIdToZxy(first)))?.equals(payload(first))).toBe(true);
    // The file loses its tile data: a kept tile still answers, another one cannot be read.
    await truncate(copy, 16_384);
    expect((await archive.tile(...tileIdToZxy(first)))?.equals(payload(first))).toBe(true);
    const unread = await archive.tile(...tileIdToZxy(second)).catch(() => 'failed');
    expect(unread === 'failed' || !(unread as Buffer | null)?.equals(payload(second))).toBe(true);
    await archive.close();
  });
});
