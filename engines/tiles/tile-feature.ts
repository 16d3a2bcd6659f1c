import { keptProperties, type FieldType, type LayerSpec, type TilerFeature } from './layer-spec.ts';
import { rankVertices } from './simplify.ts';

/**
 * A feature as the tiler carries it between tiles: projected to Web Mercator world coordinates
 * (the unit square that tile 0/0/0 covers, y down), each vertex with its Douglas-Peucker rank,
 * clipped to the tile (plus buffer) it was last cut for. One GeoJSON feature becomes one of these
 * per geometry kind (a GeometryCollection may give three).
 */

export const POINT = 1;
export const LINE = 2;
export const POLYGON = 3;
export type GeometryType = typeof POINT | typeof LINE | typeof POLYGON;

/** Stride of `parts`: end vertex (exclusive), size of the whole input part, 1 if an outer ring. */
export const PART_STRIDE = 3;

export interface TileFeature {
  /** Input order over all layers: ties and thinning are decided by it. */
  seq: number;
  layer: number;
  type: GeometryType;
  /** The zooms it appears at: the layer's band narrowed by its own `tippecanoe` zooms. */
  minZoom: number;
  maxZoom: number;
  /** The MVT feature id (a non-negative integer id of the input), if any. */
  id: number | undefined;
  /** The kept properties as JSON text; `parsed` caches them once a tile needs them. */
  properties: string;
  parsed: Record<string, string | number | boolean> | undefined;
  /** What the tile budget drops smallest first: √area of its polygons or length of its lines (world units); 0 for points. */
  size: number;
  /** Its largest outer ring's area or line's length (world units): below a zoom's tolerance it cannot appear. */
  largestPart: number;
  /** x, y, rank per vertex. */
  coords: Float64Array;
  parts: Float64Array;
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

export interface ProjectionContext {
  layer: number;
  spec: LayerSpec;
  /** Whether any zoom of the layer simplifies, so vertices need their ranks. */
  rank: boolean;
  fields: Record<string, FieldType>;
}

export function projectX(lon: number): number {
  return lon / 360 + 0.5;
}

export function projectY(lat: number): number {
  const sin = Math.sin((lat * Math.PI) / 180);
  const y = 0.5 - (0.25 * Math.log((1 + sin) / (1 - sin))) / Math.PI;
  return y < 0 ? 0 : y > 1 ? 1 : y;
}

/** The z/x/y tile holding a point (Web Mercator, y down). */
export function tileContaining(lng: number, lat: number, z: number): [number, number] {
  const n = 2 ** z;
  return [Math.min(n - 1, Math.floor(projectX(lng) * n)), Math.min(n - 1, Math.floor(projectY(lat) * n))];
}

export function unprojectX(x: number): number {
  return (x - 0.5) * 360;
}

export function unprojectY(y: number): number {
  return (360 * Math.atan(Math.exp(((180 - y * 360) * Math.PI) / 180))) / Math.PI - 90;
}

class PartsBuilder {
  readonly coords: number[] = [];
  readonly parts: number[] = [];

  constructor(readonly type: GeometryType) {}

  /** Adds a point list, line or ring; false if it has too few positions to be one. */
  add(positions: GeoJSON.Position[], outer: boolean, where: string): boolean {
    const minimum = this.type === POINT ? 1 : this.type === LINE ? 2 : 4;
    if (positions.length < minimum) return false;
    const start = this.coords.length;
    for (const p of positions) {
      const [lon, lat] = p as [unknown, unknown];
      if (typeof lon !== 'number' || typeof lat !== 'number' || !Number.isFinite(lon) || !Number.isFinite(lat)) {
        throw new TypeError(`${where}: position ${JSON.stringify(p)} is not [longitude, latitude]`);
      }
      this.coords.push(projectX(lon), projectY(lat), 0);
    }
    const c = this.coords;
    if (this.type === POLYGON && (c[start] !== c.at(-3) || c[start + 1] !== c.at(-2))) c.push(c[start]!, c[start + 1]!, 0);
    // Shoelace terms taken relative to the first vertex: exact enough for lots a few metres wide.
    const [sx, sy] = [c[start]!, c[start + 1]!];
    let size = 0;
    for (let i = start + 3; i < c.length; i += 3) {
      const x0 = c[i - 3]! - sx;
      const y0 = c[i - 2]! - sy;
      const x1 = c[i]! - sx;
      const y1 = c[i + 1]! - sy;
      size += this.type === POLYGON ? (x0 * y1 - x1 * y0) / 2 : Math.hypot(x1 - x0, y1 - y0);
    }
    this.parts.push(c.length / 3, Math.abs(size), outer ? 1 : 0);
    return true;
  }

  addGeometry(geometry: GeoJSON.Geometry, where: string): void {
    switch (geometry.type) {
      case 'Point': this.add([geometry.coordinates], false, where); break;
      case 'MultiPoint': this.add(geometry.coordinates, false, where); break;
      case 'LineString': this.add(geometry.coordinates, false, where); break;
      case 'MultiLineString': for (const line of geometry.coordinates) this.add(line, false, where); break;
      case 'Polygon': this.addPolygon(geometry.coordinates, where); break;
      case 'MultiPolygon': for (const polygon of geometry.coordinates) this.addPolygon(polygon, where); break;
      default: throw new TypeError(`${where}: geometry type ${(geometry as { type: string }).type} is not GeoJSON`);
    }
  }

  private addPolygon(rings: GeoJSON.Position[][], where: string): void {
    if (!rings[0] || !this.add(rings[0], true, where)) return;
    for (const hole of rings.slice(1)) this.add(hole, false, where);
  }
}

const KIND: Record<string, GeometryType> = {
  Point: POINT, MultiPoint: POINT, LineString: LINE, MultiLineString: LINE, Polygon: POLYGON, MultiPolygon: POLYGON,
};

function collect(geometry: GeoJSON.Geometry, builders: Map<GeometryType, PartsBuilder>, where: string, depth = 0): void {
  if (geometry.type === 'GeometryCollection') {
    if (depth > 16) throw new TypeError(`${where}: GeometryCollection nested too deep`);
    for (const g of geometry.geometries ?? []) collect(g, builders, where, depth + 1);
    return;
  }
  const type = KIND[geometry.type];
  if (!type) throw new TypeError(`${where}: geometry type ${JSON.stringify(geometry.type)} is not GeoJSON`);
  if (!Array.isArray(geometry.coordinates)) throw new TypeError(`${where}: ${geometry.type} without coordinates`);
  let builder = builders.get(type);
  if (!builder) builders.set(type, (builder = new PartsBuilder(type)));
  builder.addGeometry(geometry, where);
}

function featureId(id: GeoJSON.Feature['id']): number | undefined {
  const n = typeof id === 'string' && /^\d+$/.test(id) ? Number(id) : id;
  return typeof n === 'number' && Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** The input feature as tile features (none when it has no geometry or its zooms miss the layer's). */
export function projectFeature(input: TilerFeature, seq: number, ctx: ProjectionContext): TileFeature[] {
  const { spec } = ctx;
  const minZoom = Math.max(spec.minZoom, input.tippecanoe?.minzoom ?? 0);
  const maxZoom = Math.min(spec.maxZoom, input.tippecanoe?.maxzoom ?? 24);
  if (!input.geometry || minZoom > maxZoom) return [];
  const builders = new Map<GeometryType, PartsBuilder>();
  collect(input.geometry, builders, `layer ${spec.id}, feature ${input.id ?? `#${seq}`}`);
  const out: TileFeature[] = [];
  const properties = JSON.stringify(keptProperties(spec, input.properties, ctx.fields));
  for (const builder of builders.values()) {
    if (builder.parts.length === 0) continue;
    const coords = Float64Array.from(builder.coords);
    const parts = Float64Array.from(builder.parts);
    let size = 0;
    let largestPart = 0;
    let start = 0;
    for (let p = 0; p < parts.length; p += PART_STRIDE) {
      const end = parts[p]!;
      if (ctx.rank && builder.type !== POINT) rankVertices(coords, start * 3, (end - 1) * 3);
      if (builder.type === LINE || parts[p + 2] === 1) {
        size += parts[p + 1]!;
        largestPart = Math.max(largestPart, parts[p + 1]!);
      }
      start = end;
    }
    out.push(tileFeature({
      seq, layer: ctx.layer, type: builder.type, minZoom, maxZoom, id: featureId(input.id), properties,
      size: builder.type === POLYGON ? Math.sqrt(size) : size, largestPart, coords, parts, ...bbox(coords),
    }));
  }
  return out;
}

/**
 * Every tile feature is made here, its fields always in this order, so they all share one shape
 * and the tiling loops' property reads stay monomorphic.
 */
export function tileFeature(f: Omit<TileFeature, 'parsed'> & { parsed?: TileFeature['parsed'] }): TileFeature {
  return {
    seq: f.seq, layer: f.layer, type: f.type, minZoom: f.minZoom, maxZoom: f.maxZoom, id: f.id,
    properties: f.properties, parsed: f.parsed, size: f.size, largestPart: f.largestPart,
    coords: f.coords, parts: f.parts, minX: f.minX, minY: f.minY, maxX: f.maxX, maxY: f.maxY,
  };
}

/** The same feature with other geometry (a cut of it). */
export function withGeometry(f: TileFeature, coords: Float64Array, parts: Float64Array): TileFeature {
  const b = bbox(coords);
  return {
    seq: f.seq, layer: f.layer, type: f.type, minZoom: f.minZoom, maxZoom: f.maxZoom, id: f.id,
    properties: f.properties, parsed: f.parsed, size: f.size, largestPart: f.largestPart,
    coords, parts, minX: b.minX, minY: b.minY, maxX: b.maxX, maxY: b.maxY,
  };
}

export function bbox(coords: Float64Array): { minX: number; minY: number; maxX: number; maxY: number } {
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < coords.length; i += 3) {
    const x = coords[i]!;
    const y = coords[i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  return { minX, minY, maxX, maxY };
}
