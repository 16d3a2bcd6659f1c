import { lineTouchesBox, polygonContains, polygonTouchesBox } from '../../lib/geo/planar.ts';

/**
 * The binary geometry of a feature-store record: a type byte, then nested counts (uint32) and
 * coordinates (float64 lng, lat), all little-endian. Decoding gives flat Float64Array parts the
 * planar predicates read without copying per query.
 */

const TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] as const;
export type StoredGeometryType = (typeof TYPES)[number];

/** Every geometry as polygons (each: rings) or lines (each: one flat coordinate array). */
export interface DecodedGeometry {
  type: StoredGeometryType;
  /** Points, lines and rings as flat [x, y, ...] arrays, grouped per polygon for polygons. */
  parts: Float64Array[][];
}

type Position = number[];

function groups(geometry: GeoJSON.Geometry): Position[][][] {
  switch (geometry.type) {
    case 'Point': return [[[geometry.coordinates]]];
    case 'MultiPoint': return [[geometry.coordinates]];
    case 'LineString': return [[geometry.coordinates]];
    case 'MultiLineString': return [geometry.coordinates];
    case 'Polygon': return [geometry.coordinates];
    case 'MultiPolygon': return geometry.coordinates;
    default: throw new Error(`unsupported geometry type ${geometry.type}`);
  }
}

export function encodedSize(geometry: GeoJSON.Geometry): number {
  let bytes = 1 + 4;
  for (const group of groups(geometry)) {
    bytes += 4;
    for (const line of group) bytes += 4 + 16 * line.length;
  }
  return bytes;
}

/** Writes the geometry at offset; returns the offset after it. */
export function encodeGeometry(geometry: GeoJSON.Geometry, out: Buffer, offset: number): number {
  let at = out.writeUInt8(TYPES.indexOf(geometry.type as StoredGeometryType), offset);
  const all = groups(geometry);
  at = out.writeUInt32LE(all.length, at);
  for (const group of all) {
    at = out.writeUInt32LE(group.length, at);
    for (const line of group) {
      at = out.writeUInt32LE(line.length, at);
      for (const position of line) {
        at = out.writeDoubleLE(position[0]!, at);
        at = out.writeDoubleLE(position[1]!, at);
      }
    }
  }
  return at;
}

export function decodeGeometry(buf: Buffer, offset: number): DecodedGeometry {
  const type = TYPES[buf.readUInt8(offset)];
  if (!type) throw new Error(`corrupt geometry type at ${offset}`);
  let at = offset + 1;
  const groupCount = buf.readUInt32LE(at);
  at += 4;
  const parts: Float64Array[][] = [];
  for (let g = 0; g < groupCount; g++) {
    const lineCount = buf.readUInt32LE(at);
    at += 4;
    const group: Float64Array[] = [];
    for (let l = 0; l < lineCount; l++) {
      const points = buf.readUInt32LE(at);
      at += 4;
      const flat = new Float64Array(points * 2);
      for (let i = 0; i < flat.length; i++, at += 8) flat[i] = buf.readDoubleLE(at);
      group.push(flat);
    }
    parts.push(group);
  }
  return { type, parts };
}

const positions = (flat: Float64Array): Position[] => Array.from({ length: flat.length / 2 }, (_, i) => [flat[2 * i]!, flat[2 * i + 1]!]);

export function toGeoJson({ type, parts }: DecodedGeometry): GeoJSON.Geometry {
  const first = parts[0] ?? [];
  const line = positions(first[0] ?? new Float64Array());
  switch (type) {
    case 'Point': return { type, coordinates: line[0] ?? [] };
    case 'MultiPoint': return { type, coordinates: line };
    case 'LineString': return { type, coordinates: line };
    case 'MultiLineString': return { type, coordinates: first.map(positions) };
    case 'Polygon': return { type, coordinates: first.map(positions) };
    case 'MultiPolygon': return { type, coordinates: parts.map((rings) => rings.map(positions)) };
  }
}

const isPolygonal = (type: StoredGeometryType): boolean => type === 'Polygon' || type === 'MultiPolygon';

/** Whether the point lies in the geometry's area (edges included); never true for points or lines. */
export function geometryContains(geometry: DecodedGeometry, x: number, y: number): boolean {
  return isPolygonal(geometry.type) && geometry.parts.some((rings) => polygonContains(rings, x, y));
}

/** Whether the geometry and the box [w, s, e, n] share at least one point. */
export function geometryTouchesBox(geometry: DecodedGeometry, box: readonly [number, number, number, number]): boolean {
  if (isPolygonal(geometry.type)) return geometry.parts.some((rings) => polygonTouchesBox(rings, box));
  if (geometry.type === 'Point' || geometry.type === 'MultiPoint') {
    const [w, s, e, n] = box;
    const flat = geometry.parts[0]?.[0] ?? new Float64Array();
    for (let i = 0; i < flat.length; i += 2) if (flat[i]! >= w && flat[i]! <= e && flat[i + 1]! >= s && flat[i + 1]! <= n) return true;
    return false;
  }
  return geometry.parts.some((lines) => lines.some((line) => lineTouchesBox(line, box)));
}
