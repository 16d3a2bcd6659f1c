import type { RecordWriter } from './record-file.ts';
import { PART_STRIDE, tileFeature, type GeometryType, type TileFeature } from './tile-feature.ts';

/**
 * A tile feature as one record of a partition file, lossless (float64 coordinates), laid out so
 * the fields that route it (zooms, size, bounding box) read without decoding the rest:
 *
 *   0 u32 record bytes | 4 u32 seq | 8 u16 layer | 10 u8 type | 11 u8 min zoom | 12 u8 max zoom
 *   16 u32 parts | 20 u32 vertices | 24 u32 property bytes | 32 f64 id (NaN: none) | 40 f64 size
 *   48 f64 largest part | 56 f64 minX, minY, maxX, maxY | 88 parts (3 f64 each) | coords (3 f64
 *   each) | properties (UTF-8 JSON) | zero padding to a multiple of 8 bytes
 *
 * Records are 8-byte multiples so that, in a read buffer that starts at a record, the float64
 * arrays can be viewed in place and copied out whole.
 */

const HEADER = 88;

/** The routing fields of a record, read in place. */
export interface RecordHeader {
  layer: number;
  type: GeometryType;
  minZoom: number;
  maxZoom: number;
  largestPart: number;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export function readHeader(buffer: Buffer, offset: number): RecordHeader {
  return {
    layer: buffer.readUInt16LE(offset + 8),
    type: buffer[offset + 10] as GeometryType,
    minZoom: buffer[offset + 11]!,
    maxZoom: buffer[offset + 12]!,
    largestPart: buffer.readDoubleLE(offset + 48),
    minX: buffer.readDoubleLE(offset + 56),
    minY: buffer.readDoubleLE(offset + 64),
    maxX: buffer.readDoubleLE(offset + 72),
    maxY: buffer.readDoubleLE(offset + 80),
  };
}

export function writeRecord(f: TileFeature, out: RecordWriter): void {
  const properties = Buffer.from(f.properties);
  const unpadded = HEADER + (f.parts.length + f.coords.length) * 8 + properties.length;
  const { buffer, offset } = out.reserve((unpadded + 7) & ~7);
  buffer.writeUInt32LE(f.seq, offset + 4);
  buffer.writeUInt16LE(f.layer, offset + 8);
  buffer[offset + 10] = f.type;
  buffer[offset + 11] = f.minZoom;
  buffer[offset + 12] = f.maxZoom;
  buffer.writeUInt32LE(f.parts.length / PART_STRIDE, offset + 16);
  buffer.writeUInt32LE(f.coords.length / 3, offset + 20);
  buffer.writeUInt32LE(properties.length, offset + 24);
  buffer.writeDoubleLE(f.id ?? Number.NaN, offset + 32);
  buffer.writeDoubleLE(f.size, offset + 40);
  buffer.writeDoubleLE(f.largestPart, offset + 48);
  buffer.writeDoubleLE(f.minX, offset + 56);
  buffer.writeDoubleLE(f.minY, offset + 64);
  buffer.writeDoubleLE(f.maxX, offset + 72);
  buffer.writeDoubleLE(f.maxY, offset + 80);
  let at = offset + HEADER;
  for (const array of [f.parts, f.coords]) {
    buffer.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  properties.copy(buffer, at);
  buffer.fill(0, offset + unpadded, offset + ((unpadded + 7) & ~7));
}

export function readRecord(buffer: Buffer, offset: number): TileFeature {
  const parts = buffer.readUInt32LE(offset + 16) * PART_STRIDE;
  const doubles = parts + buffer.readUInt32LE(offset + 20) * 3;
  const propertyBytes = buffer.readUInt32LE(offset + 24);
  const id = buffer.readDoubleLE(offset + 32);
  const at = buffer.byteOffset + offset + HEADER;
  let arrays: Float64Array;
  if (at % 8 === 0) {
    arrays = new Float64Array(buffer.buffer, at, doubles).slice();
  } else {
    arrays = new Float64Array(doubles);
    new Uint8Array(arrays.buffer).set(buffer.subarray(offset + HEADER, offset + HEADER + doubles * 8));
  }
  const propertiesAt = offset + HEADER + doubles * 8;
  return tileFeature({
    seq: buffer.readUInt32LE(offset + 4),
    layer: buffer.readUInt16LE(offset + 8),
    type: buffer[offset + 10] as GeometryType,
    minZoom: buffer[offset + 11]!,
    maxZoom: buffer[offset + 12]!,
    id: Number.isNaN(id) ? undefined : id,
    properties: buffer.toString('utf8', propertiesAt, propertiesAt + propertyBytes),
    size: buffer.readDoubleLE(offset + 40),
    largestPart: buffer.readDoubleLE(offset + 48),
    parts: arrays.subarray(0, parts),
    coords: arrays.subarray(parts),
    minX: buffer.readDoubleLE(offset + 56),
    minY: buffer.readDoubleLE(offset + 64),
    maxX: buffer.readDoubleLE(offset + 72),
    maxY: buffer.readDoubleLE(offset + 80),
  });
}
