import { rmSync } from 'node:fs';
import path from 'node:path';
import { readRecords, RecordWriter } from '../../engines/tiles/record-file.ts';
import { BASEMAP_LAYERS, type BasemapFeature, type BasemapLayer } from './feature.ts';
import { SPOOL_GROUPS, type BasemapFeatureStore, type SpoolGroup } from './feature-store.ts';

/**
 * Basemap features parked on disk between the OSM read and the tiler, one file per source layer
 * and per group of OSM objects, so that each layer reads back in the order the in-memory build
 * gives it (areas of closed ways, areas of relations, lines, points) and the tiles come out the
 * same. One record per feature, coordinates as float64 (exact):
 *
 *   0 u32 record bytes | 4 u8 min zoom | 5 u8 max zoom (255: none) | 6 u8 geometry type
 *   8 u32 property bytes | 12 properties (UTF-8 JSON) | geometry
 *
 * where a geometry is nested u32 counts ending in coordinate pairs: a Point is one pair, a
 * LineString a count and pairs, a Polygon or MultiLineString a count of those, a MultiPolygon a
 * count of Polygons.
 */

const GEOMETRY_TYPES = ['Point', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'] as const;
type SpooledGeometry = GeoJSON.Point | GeoJSON.LineString | GeoJSON.MultiLineString | GeoJSON.Polygon | GeoJSON.MultiPolygon;
/** Nesting depth of each type's coordinates below the pair. */
const DEPTH = { Point: 0, LineString: 1, MultiLineString: 2, Polygon: 2, MultiPolygon: 3 } as const;
const NO_MAX_ZOOM = 255;

export class FeatureSpool implements BasemapFeatureStore {
  private readonly files = new Map<string, RecordWriter>();
  /** Features spooled, and their bytes. */
  count = 0;
  bytes = 0;

  constructor(private readonly dir: string) {}

  add(group: SpoolGroup, f: BasemapFeature): void {
    const geometry = f.geometry as SpooledGeometry;
    const type = GEOMETRY_TYPES.indexOf(geometry.type);
    if (type < 0) throw new Error(`cannot spool a ${geometry.type}`);
    const properties = Buffer.from(JSON.stringify(f.properties));
    const depth = DEPTH[geometry.type];
    const start = 12 + properties.length;
    const size = start + geometryBytes(geometry.coordinates, depth);
    const { buffer, offset } = this.writer(f.layer, group).reserve(size);
    buffer[offset + 4] = f.minZoom;
    buffer[offset + 5] = f.maxZoom ?? NO_MAX_ZOOM;
    buffer[offset + 6] = type;
    buffer.writeUInt32LE(properties.length, offset + 8);
    properties.copy(buffer, offset + 12);
    writeCoordinates(buffer, offset + start, geometry.coordinates, depth);
    this.count += 1;
    this.bytes += size;
  }

  /** The layer's features, group by group, each group in the order it was spooled; each file is removed once read. */
  *read(layer: BasemapLayer): Generator<BasemapFeature> {
    for (const group of SPOOL_GROUPS) {
      const file = this.files.get(key(layer, group));
      if (!file) continue;
      file.close();
      for (const [buffer, offset] of readRecords(file.path)) yield readFeature(layer, buffer, offset);
      rmSync(file.path, { force: true });
      this.files.delete(key(layer, group));
    }
  }

  /** Closes and removes every file. */
  clear(): void {
    for (const file of this.files.values()) {
      file.close();
      rmSync(file.path, { force: true });
    }
    this.files.clear();
    this.count = 0;
    this.bytes = 0;
  }

  private writer(layer: BasemapLayer, group: SpoolGroup): RecordWriter {
    const k = key(layer, group);
    let file = this.files.get(k);
    if (!file) this.files.set(k, (file = new RecordWriter(path.join(this.dir, `${k}.spool`), 1 << 20)));
    return file;
  }
}

const key = (layer: BasemapLayer, group: SpoolGroup) => `${BASEMAP_LAYERS.indexOf(layer)}-${group}`;

function geometryBytes(c: unknown, depth: number): number {
  if (depth === 0) return 16;
  const list = c as unknown[];
  let bytes = 4;
  if (depth === 1) return bytes + 16 * list.length;
  for (const part of list) bytes += geometryBytes(part, depth - 1);
  return bytes;
}

function writeCoordinates(buffer: Buffer, at: number, c: unknown, depth: number): number {
  if (depth === 0) {
    const [x, y] = c as number[];
    buffer.writeDoubleLE(x!, at);
    buffer.writeDoubleLE(y!, at + 8);
    return at + 16;
  }
  const list = c as unknown[];
  buffer.writeUInt32LE(list.length, at);
  at += 4;
  for (const part of list) at = writeCoordinates(buffer, at, part, depth - 1);
  return at;
}

function readCoordinates(buffer: Buffer, at: number, depth: number): [unknown, number] {
  if (depth === 0) return [[buffer.readDoubleLE(at), buffer.readDoubleLE(at + 8)], at + 16];
  const n = buffer.readUInt32LE(at);
  at += 4;
  const list: unknown[] = new Array(n);
  for (let i = 0; i < n; i++) [list[i], at] = readCoordinates(buffer, at, depth - 1);
  return [list, at];
}

function readFeature(layer: BasemapLayer, buffer: Buffer, offset: number): BasemapFeature {
  const maxZoom = buffer[offset + 5]!;
  const type = GEOMETRY_TYPES[buffer[offset + 6]!]!;
  const propertyBytes = buffer.readUInt32LE(offset + 8);
  const properties = JSON.parse(buffer.toString('utf8', offset + 12, offset + 12 + propertyBytes)) as BasemapFeature['properties'];
  const [coordinates] = readCoordinates(buffer, offset + 12 + propertyBytes, DEPTH[type]);
  return {
    layer,
    minZoom: buffer[offset + 4]!,
    ...(maxZoom !== NO_MAX_ZOOM ? { maxZoom } : {}),
    properties,
    geometry: { type, coordinates } as SpooledGeometry,
  };
}
