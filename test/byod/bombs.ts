import { gzipSync } from 'node:zlib';
import { serializeDirectory, type Entry } from '../../engines/tiles/pmtiles/directory.ts';
import { Compression, encodeHeader, TileType, type HeaderFields } from '../../engines/tiles/pmtiles/header.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';

/** Hostile uploads for the bounds of POST /byod (issue 28): directory bombs and deep JSON. */

export const TILE = gzipSync(Buffer.from('not really a vector tile, but gzip'));

export interface ArchiveParts {
  header?: Partial<HeaderFields>;
  root: Buffer;
  leaves?: Buffer;
  tiles?: Buffer;
}

/** An archive laid out header, root, metadata, leaves, tile data. */
export function archiveOf(parts: ArchiveParts): Buffer {
  const tiles = parts.tiles ?? TILE;
  const metadata = gzipSync(JSON.stringify({ vector_layers: [{ id: 'bomb' }] }));
  const leaves = parts.leaves ?? Buffer.alloc(0);
  const rootOffset = 127;
  const metadataOffset = rootOffset + parts.root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const tileDataOffset = leavesOffset + leaves.length;
  const header = encodeHeader({
    rootOffset, rootLength: parts.root.length, metadataOffset, metadataLength: metadata.length, leavesOffset, leavesLength: leaves.length,
    tileDataOffset, tileDataLength: tiles.length, addressedTiles: 1, tileEntries: 1, tileContents: 1, clustered: true,
    internalCompression: Compression.gzip, tileCompression: Compression.gzip, tileType: TileType.mvt, minZoom: 0, maxZoom: 0,
    minLon: -141, minLat: 41.7, maxLon: -52.6, maxLat: 83.1, centerZoom: 0, centerLon: -96, centerLat: 62,
    ...parts.header,
  });
  return Buffer.concat([header, parts.root, metadata, leaves, tiles]);
}

const varint = (value: number) => {
  const out: number[] = [];
  for (; value >= 0x80; value = Math.floor(value / 0x80)) out.push((value % 0x80) | 0x80);
  out.push(value);
  return Buffer.from(out);
};

/** A directory of `count` consecutive tiles from `firstId`, each the same `length` bytes at offset 0 (uncompressed). */
export function uniformDirectory(firstId: number, count: number, length = TILE.length): Buffer {
  const n = (b: number) => Buffer.alloc(count - 1, b);
  const len = varint(length);
  const lengths = Buffer.alloc(count * len.length);
  for (let i = 0; i < count; i++) len.copy(lengths, i * len.length);
  return Buffer.concat([varint(count), varint(firstId), n(1), Buffer.alloc(count, 1), lengths, Buffer.alloc(count, 1)]);
}

/** A root of leaf pointers, one per leaf (laid back to back in the leaves section), each starting at firstIds[i]. */
export function leafRoot(leaves: Buffer[], firstIds: number[]): Buffer {
  let offset = 0;
  const pointers: Entry[] = leaves.map((leaf, i) => {
    const e = { tileId: firstIds[i]!, offset, length: leaf.length, runLength: 0 };
    offset += leaf.length;
    return e;
  });
  return gzipSync(serializeDirectory(pointers));
}

/**
 * `count` leaf directories, each one tile entry followed by zeros so it inflates to `inflatedBytes`
 * (readers ignore bytes after a directory's entries). The padding is one gzip member shared by
 * every leaf (gzip members concatenate), so building 150 of 32 MiB costs one compression.
 */
export function paddedLeafBomb(count: number, inflatedBytes: number): Buffer {
  const z = 8;
  const ids = Array.from({ length: count }, (_, i) => zxyToTileId(z, 0, 0) + i);
  const heads = ids.map((id) => serializeDirectory([{ tileId: id, offset: 0, length: TILE.length, runLength: 1 }]));
  const padding = gzipSync(Buffer.alloc(inflatedBytes - heads[0]!.length - 8), { level: 9 });
  const leaves = heads.map((head) => Buffer.concat([gzipSync(head), padding]));
  return archiveOf({ header: { minZoom: z, maxZoom: z }, root: leafRoot(leaves, ids), leaves: Buffer.concat(leaves) });
}

/** One leaf of `entries` tiles at zoom 11 (all the same tile bytes): 1,999,000 entries gzip to about 8 KB. */
export function manyEntriesLeaf(entries: number): Buffer {
  const z = 11;
  const first = zxyToTileId(z, 0, 0);
  const leaf = gzipSync(uniformDirectory(first, entries), { level: 9 });
  return archiveOf({ header: { minZoom: z, maxZoom: z }, root: leafRoot([leaf], [first]), leaves: leaf });
}

/** `leaves` leaves of `perLeaf` entries each, tiles consecutive from zoom 11's first. */
export function manyLeaves(leaves: number, perLeaf: number): Buffer {
  const z = 11;
  const first = zxyToTileId(z, 0, 0);
  const ids = Array.from({ length: leaves }, (_, i) => first + i * perLeaf);
  const dirs = ids.map((id) => gzipSync(uniformDirectory(id, perLeaf)));
  return archiveOf({ header: { minZoom: z, maxZoom: z }, root: leafRoot(dirs, ids), leaves: Buffer.concat(dirs) });
}

/** A Feature whose property `deep` nests arrays `depth` levels (the Feature and properties objects add two). */
export function deepGeoJson(depth: number): string {
  return `{"type":"Feature","properties":{"deep":${'['.repeat(depth)}${']'.repeat(depth)}},"geometry":{"type":"Point","coordinates":[-123.1,49.3]}}`;
}
