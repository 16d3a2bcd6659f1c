import { HEADER_BYTES } from './directory.ts';

/** The fixed 127-byte PMTiles v3 header (little-endian). */

export const Compression = { unknown: 0, none: 1, gzip: 2, brotli: 3, zstd: 4 } as const;
export const TileType = { unknown: 0, mvt: 1, png: 2, jpeg: 3, webp: 4, avif: 5 } as const;

export interface Bounds {
  minLon: number;
  minLat: number;
  maxLon: number;
  maxLat: number;
}

export interface HeaderFields extends Bounds {
  rootOffset: number;
  rootLength: number;
  metadataOffset: number;
  metadataLength: number;
  leavesOffset: number;
  leavesLength: number;
  tileDataOffset: number;
  tileDataLength: number;
  addressedTiles: number;
  tileEntries: number;
  tileContents: number;
  clustered: boolean;
  internalCompression: number;
  tileCompression: number;
  tileType: number;
  minZoom: number;
  maxZoom: number;
  centerZoom: number;
  centerLon: number;
  centerLat: number;
}

const e7 = (degrees: number) => Math.round(degrees * 1e7);

export function encodeHeader(h: HeaderFields): Buffer {
  const b = Buffer.alloc(HEADER_BYTES);
  b.write('PMTiles', 0, 'ascii');
  b.writeUInt8(3, 7);
  const u64 = [h.rootOffset, h.rootLength, h.metadataOffset, h.metadataLength, h.leavesOffset, h.leavesLength,
    h.tileDataOffset, h.tileDataLength, h.addressedTiles, h.tileEntries, h.tileContents];
  u64.forEach((v, i) => b.writeBigUInt64LE(BigInt(v), 8 + i * 8));
  b.writeUInt8(h.clustered ? 1 : 0, 96);
  b.writeUInt8(h.internalCompression, 97);
  b.writeUInt8(h.tileCompression, 98);
  b.writeUInt8(h.tileType, 99);
  b.writeUInt8(h.minZoom, 100);
  b.writeUInt8(h.maxZoom, 101);
  b.writeInt32LE(e7(h.minLon), 102);
  b.writeInt32LE(e7(h.minLat), 106);
  b.writeInt32LE(e7(h.maxLon), 110);
  b.writeInt32LE(e7(h.maxLat), 114);
  b.writeUInt8(h.centerZoom, 118);
  b.writeInt32LE(e7(h.centerLon), 119);
  b.writeInt32LE(e7(h.centerLat), 123);
  return b;
}
