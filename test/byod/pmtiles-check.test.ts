import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkPmtiles } from '../../engines/byod/pmtiles-check.ts';
import { serializeDirectory, type Entry } from '../../engines/tiles/pmtiles/directory.ts';
import { Compression, encodeHeader, TileType, type HeaderFields } from '../../engines/tiles/pmtiles/header.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { PMTilesWriter } from '../../engines/tiles/pmtiles/writer.ts';
import { manyEntriesLeaf, manyLeaves, paddedLeafBomb } from './bombs.ts';
import { vancouverArchive } from '../support/byod/fixtures.ts';

/*
 * The check of an uploaded PMTiles archive (engines/byod/pmtiles-check.ts) against archives forged
 * wrong in one way each: what the `pmtiles` reader alone would accept, choke on or allocate for.
 */

const TILE = gzipSync(Buffer.from('not really a vector tile, but gzip'));

interface Forge {
  header?: Partial<HeaderFields>;
  root?: Buffer;
  leaves?: Buffer;
  tiles?: Buffer;
  metadata?: Buffer;
}

/** An archive laid out header, root, metadata, leaves, tile data; every part replaceable. */
function forge(parts: Forge = {}): Buffer {
  const tiles = parts.tiles ?? TILE;
  const root = parts.root ?? gzipSync(serializeDirectory([{ tileId: zxyToTileId(0, 0, 0), offset: 0, length: tiles.length, runLength: 1 }]));
  const metadata = parts.metadata ?? gzipSync(JSON.stringify({ vector_layers: [{ id: 'roads' }] }));
  const leaves = parts.leaves ?? Buffer.alloc(0);
  const rootOffset = 127;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const tileDataOffset = leavesOffset + leaves.length;
  const header = encodeHeader({
    rootOffset, rootLength: root.length, metadataOffset, metadataLength: metadata.length, leavesOffset, leavesLength: leaves.length,
    tileDataOffset, tileDataLength: tiles.length, addressedTiles: 1, tileEntries: 1, tileContents: 1, clustered: true,
    internalCompression: Compression.gzip, tileCompression: Compression.gzip, tileType: TileType.mvt, minZoom: 0, maxZoom: 0,
    minLon: -141, minLat: 41.7, maxLon: -52.6, maxLat: 83.1, centerZoom: 0, centerLon: -96, centerLat: 62,
    ...parts.header,
  });
  return Buffer.concat([header, root, metadata, leaves, tiles]);
}

const directory = (entries: Entry[]) => gzipSync(serializeDirectory(entries));
/** A directory whose entry count is a lie: `count` claimed, two bytes of entries present. */
const forgedCount = (count: number) => {
  const bytes: number[] = [];
  for (let v = count; ; v = Math.floor(v / 128)) {
    if (v < 128) {
      bytes.push(v);
      break;
    }
    bytes.push((v % 128) | 0x80);
  }
  return gzipSync(Buffer.from([...bytes, 1, 1]));
};

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-byod-check-'));
});
afterAll(async () => rm(dir, { recursive: true, force: true }));

describe('checkPmtiles', () => {
  it('accepts the forged baseline and what our writer and tiler make', async () => {
    expect(await checkPmtiles(forge())).toMatchObject({ minZoom: 0, maxZoom: 0, layers: ['roads'], addressedTiles: 1 });
    expect(await checkPmtiles(await vancouverArchive())).toMatchObject({ minZoom: 0, maxZoom: 12, layers: ['places'] });
  });

  it('reads every leaf directory of a large archive', async () => {
    const file = path.join(dir, 'leaves.pmtiles');
    const writer = await PMTilesWriter.create(file);
    // 40,000 distinct tiles: far more entries than a 16 KiB root holds, so the writer makes leaves.
    for (let i = 0; i < 40_000; i += 1) await writer.addTile(12, i % 200, Math.floor(i / 200), gzipSync(Buffer.from(`tile ${i}`)));
    const summary = await writer.finish();
    expect(summary.leafDirectories).toBeGreaterThan(1);
    expect(await checkPmtiles(await readFile(file))).toMatchObject({ minZoom: 12, maxZoom: 12, addressedTiles: 40_000, layers: [] });
  });

  const leafPointer = (leaf: Buffer, offset = 0) => directory([{ tileId: 0, offset, length: leaf.length, runLength: 0 }]);
  const bomb = gzipSync(Buffer.alloc(40 * 1024 * 1024));
  const leaf = directory([{ tileId: 0, offset: 0, length: TILE.length, runLength: 1 }]);

  it.each<[string, () => Buffer, string]>([
    ['a root directory claiming a billion entries', () => forge({ root: forgedCount(1_000_000_000) }),
      'invalid PMTiles: the root directory does not decode (a directory claims 1000000000 entries in 7 bytes)'],
    ['a root directory that is not gzip', () => forge({ root: Buffer.from('plain bytes, not gzip') }),
      'invalid PMTiles: the root directory does not decode (a section is not valid gzip)'],
    ['an empty root directory', () => forge({ root: directory([]) }),
      'invalid PMTiles: the root directory does not decode (Empty directory is invalid)'],
    ['a leaf directory that decompresses to 40 MB', () => forge({ root: leafPointer(bomb), leaves: bomb }),
      'invalid PMTiles: the leaf directory decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) per directory are accepted'],
    ['a leaf pointer past the leaf directories', () => forge({ root: leafPointer(leaf, 5), leaves: leaf }),
      `invalid PMTiles: a leaf directory (offset 5, length ${leaf.length}) is not inside the leaf directories section`],
    ['a leaf that is garbage', () => forge({ root: leafPointer(gzipSync(Buffer.from([0x05]))), leaves: gzipSync(Buffer.from([0x05])) }),
      'invalid PMTiles: the leaf directory does not decode (a directory claims 5 entries in 1 bytes)'],
    ['tiles listed twice', () => forge({ header: { maxZoom: 1 }, root: directory([{ tileId: 1, offset: 0, length: TILE.length, runLength: 2 }, { tileId: 2, offset: 0, length: TILE.length, runLength: 1 }]) }),
      'invalid PMTiles: the root directory lists tile 1/0/1 out of order or twice'],
    ['a tile beyond the header\'s zooms', () => forge({ root: directory([{ tileId: zxyToTileId(3, 1, 1), offset: 0, length: TILE.length, runLength: 1 }]) }),
      'invalid PMTiles: the root directory has tile 3/1/1 outside zooms 0 to 0'],
    ['a tile past the tile data', () => forge({ root: directory([{ tileId: 0, offset: 10, length: TILE.length, runLength: 1 }]) }),
      `invalid PMTiles: tile 0/0/0 (offset 10, length ${TILE.length}) is not inside the tile data`],
    ['tiles said to be gzip that are not', () => forge({ tiles: Buffer.from('a raw protobuf would start like this.') }),
      'invalid PMTiles: tile 0/0/0 is not gzip although the header says tiles are gzip'],
    ['a root directory past the first 16 KiB', () => forge({ metadata: Buffer.alloc(0), root: Buffer.concat([directory([{ tileId: 0, offset: 0, length: TILE.length, runLength: 1 }]), Buffer.alloc(17_000)]) }),
      'invalid PMTiles: the root directory does not end within the first 16 KiB'],
    ['a section offset past the end of the file', () => forge({ header: { metadataOffset: 1_000_000 } }),
      `invalid PMTiles: the metadata (offset 1000000, length ${forge().readUInt32LE(32)}) is not inside the file of ${forge().length} bytes`],
    ['bounds west of east', () => forge({ header: { minLon: -52, maxLon: -141 } }),
      'invalid PMTiles: bounds -52,41.7,-141,83.1 are not west,south,east,north within -180..180 and -90..90'],
    ['a latitude past the pole', () => forge({ header: { maxLat: 95 } }),
      'invalid PMTiles: bounds -141,41.7,-52.6,95 are not west,south,east,north within -180..180 and -90..90'],
    ['zooms 5 to 3', () => forge({ header: { minZoom: 5, maxZoom: 3 } }),
      'invalid PMTiles: zooms 5 to 3 are not a range within 0 to 26'],
    ['zoom 40', () => forge({ header: { maxZoom: 40 } }),
      'invalid PMTiles: zooms 0 to 40 are not a range within 0 to 26'],
    ['brotli directories', () => forge({ header: { internalCompression: Compression.brotli } }),
      'invalid PMTiles: internal compression brotli is not supported; use gzip or none'],
    ['zstd tiles', () => forge({ header: { tileCompression: Compression.zstd } }),
      'invalid PMTiles: tile compression zstd is not supported; use gzip or none'],
    ['metadata that is not JSON', () => forge({ metadata: gzipSync('{vector_layers: nope') }),
      expect.stringMatching(/^invalid PMTiles: the metadata is not JSON \(.+\)$/) as unknown as string],
    ['vector_layers without ids', () => forge({ metadata: gzipSync(JSON.stringify({ vector_layers: [{ name: 'x' }] })) }),
      'invalid PMTiles: metadata vector_layers must be an array of objects with a string id'],
  ])('refuses %s', async (_what, make, message) => {
    const refusal = await checkPmtiles(make()).then(() => null, (err: Error) => err);
    expect(refusal?.name).toBe('QueryError');
    expect(refusal?.message).toEqual(message);
  });
});

describe('checkPmtiles bounds the work of reading directories (issue 28)', () => {
  const leaf = directory([{ tileId: 0, offset: 0, length: TILE.length, runLength: 1 }]);
  const leafPointer = (to: Buffer, offset: number) => directory([{ tileId: 0, offset, length: to.length, runLength: 0 }]);
  /** Root → leaf → leaf … `depth` directories in all, the last holding tile 0/0/0; leaves laid deepest first. */
  const nested = (depth: number) => {
    const parts = [leaf];
    const offsets = [0];
    let at = leaf.length;
    while (parts.length < depth - 1) {
      const pointer = leafPointer(parts.at(-1)!, offsets.at(-1)!);
      parts.push(pointer);
      offsets.push(at);
      at += pointer.length;
    }
    return forge({ root: leafPointer(parts.at(-1)!, offsets.at(-1)!), leaves: Buffer.concat(parts) });
  };

  it('accepts an archive at the bounds: 495,000 entries in 5 leaves, and 4 levels of directories', async () => {
    expect(await checkPmtiles(manyLeaves(5, 99_000))).toMatchObject({ minZoom: 11, maxZoom: 11, addressedTiles: 495_000 });
    expect(await checkPmtiles(nested(4))).toMatchObject({ addressedTiles: 1 });
  });

  it.each<[string, () => Buffer, string, number]>([
    ['150 leaf directories of 4.9 MB inflating to 32 MiB each', () => paddedLeafBomb(150, 32 * 1024 * 1024 - 64),
      'invalid PMTiles: the leaf directory decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) per directory are accepted', 5 * 1024 * 1024],
    ['20 leaf directories inflating to 4 MiB each, 80 MiB in all', () => paddedLeafBomb(20, 4 * 1024 * 1024 - 64),
      'invalid PMTiles: the directories decompress to more than 16777216 bytes in all; at most 16777216 bytes (16 MiB) are accepted', Infinity],
    ['an 8 KB archive of one leaf of 1,999,000 entries', () => manyEntriesLeaf(1_999_000),
      'invalid PMTiles: the leaf directory decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) per directory are accepted', 8_500],
    ['a leaf of 150,000 entries', () => manyEntriesLeaf(150_000),
      'invalid PMTiles: the leaf directory claims 150000 entries; at most 100000 entries per directory are accepted', Infinity],
    ['6 leaves of 99,000 entries', () => manyLeaves(6, 99_000),
      'invalid PMTiles: the directories list more than 500000 entries in all; at most 500000 are accepted', Infinity],
    ['5 levels of directories', () => nested(5),
      'invalid PMTiles: leaf directories nest 5 levels deep counting the root; at most 4 levels (the root and 3 of leaves) are accepted', Infinity],
    ['metadata inflating to 5 MiB', () => forge({ metadata: gzipSync(`{"vector_layers":[],"x":"${' '.repeat(5 * 1024 * 1024)}"}`) }),
      'invalid PMTiles: the metadata decompresses to more than 4194304 bytes; at most 4194304 bytes (4 MiB) of metadata are accepted', Infinity],
  ])('refuses %s, naming the bound', async (_what, make, message, maxBytes) => {
    const bytes = make();
    // The bombs are small on the wire: that is what makes them bombs.
    expect(bytes.length).toBeLessThan(maxBytes);
    const started = performance.now();
    const refusal = await checkPmtiles(bytes).then(() => null, (err: Error) => err);
    expect(refusal?.name).toBe('QueryError');
    expect(refusal?.message).toEqual(message);
    // Generous: the 150-leaf bomb took 25 s before the bounds.
    expect(performance.now() - started).toBeLessThan(5_000);
  }, 120_000);
});
