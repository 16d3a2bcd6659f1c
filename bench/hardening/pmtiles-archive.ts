/**
 * A large valid PMTiles v3 archive for the upload check of the event-loop benchmark: `entries`
 * consecutive tiles at zoom 12 over `tiles` distinct gzipped tiles of `tileBytes` seeded random
 * bytes each (so the body is large and does not compress), directories split into leaves as a
 * writer splits them (engines/tiles/pmtiles/directory.ts).
 */
import { gzipSync } from 'node:zlib';
import { seededRandom } from '../../lib/seeded-random.ts';
import { buildDirectories, HEADER_BYTES, type Entry } from '../../engines/tiles/pmtiles/directory.ts';
import { Compression, encodeHeader, TileType } from '../../engines/tiles/pmtiles/header.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';

export interface ArchiveSize {
  entries: number;
  tiles: number;
  tileBytes: number;
}

export function largeArchive({ entries, tiles, tileBytes }: ArchiveSize, seed = 28): Buffer {
  const rnd = seededRandom(seed);
  const blobs = Array.from({ length: tiles }, () => gzipSync(Buffer.from(Array.from({ length: tileBytes }, () => Math.floor(rnd() * 256)))));
  const offsets: number[] = [];
  let offset = 0;
  for (const b of blobs) {
    offsets.push(offset);
    offset += b.length;
  }
  const z = 12;
  const first = zxyToTileId(z, 0, 0);
  const list: Entry[] = Array.from({ length: entries }, (_, i) => ({ tileId: first + i, offset: offsets[i % tiles]!, length: blobs[i % tiles]!.length, runLength: 1 }));
  const { root, leaves } = buildDirectories(list);
  const metadata = gzipSync(JSON.stringify({ name: 'bench', vector_layers: [{ id: 'bench', fields: {} }] }));
  const tileData = Buffer.concat(blobs);
  const rootOffset = HEADER_BYTES;
  const metadataOffset = rootOffset + root.length;
  const leavesOffset = metadataOffset + metadata.length;
  const tileDataOffset = leavesOffset + leaves.length;
  const header = encodeHeader({
    rootOffset, rootLength: root.length, metadataOffset, metadataLength: metadata.length, leavesOffset, leavesLength: leaves.length,
    tileDataOffset, tileDataLength: tileData.length, addressedTiles: entries, tileEntries: entries, tileContents: tiles, clustered: false,
    internalCompression: Compression.gzip, tileCompression: Compression.gzip, tileType: TileType.mvt, minZoom: z, maxZoom: z,
    minLon: -180, minLat: -85, maxLon: 180, maxLat: 85, centerZoom: z, centerLon: 0, centerLat: 0,
  });
  return Buffer.concat([header, root, metadata, leaves, tileData]);
}
