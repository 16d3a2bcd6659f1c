import type { TilerFeature } from '../tiles/tiler.ts';
import { QueryError } from '../../lib/query-error.ts';

/**
 * Reads an uploaded GeoJSON file (RFC 7946) into the features the tiler takes, refusing with a
 * QueryError (a 400) that names the first problem and where it is: not UTF-8, JSON nested deeper
 * than MAX_JSON_DEPTH, not JSON, not a FeatureCollection, Feature or geometry, a malformed or
 * out-of-range position, a line or ring too short, an unclosed ring, or nothing to draw.
 */

export type OverlayBounds = [west: number, south: number, east: number, north: number];

export interface CheckedGeoJson {
  features: TilerFeature[];
  bounds: OverlayBounds;
}

/**
 * Arrays and objects nested in one another, counting the outermost: a MultiPolygon in a
 * FeatureCollection needs 9, the rest is for properties. Deeper files are refused before they
 * are parsed, so nothing downstream (the tiler serializes properties recursively) can overflow.
 */
export const MAX_JSON_DEPTH = 64;

const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon', 'GeometryCollection'];

class Invalid extends QueryError {
  constructor(where: string, problem: string) {
    super(`invalid GeoJSON: ${where ? `${where}: ` : ''}${problem}`);
  }
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function readGeoJson(bytes: Uint8Array): CheckedGeoJson {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw new Invalid('', 'the file is not UTF-8 text');
  }
  const deep = firstTooDeep(bytes, MAX_JSON_DEPTH);
  if (deep >= 0) {
    throw new Invalid('', `the JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at byte ${deep}); at most ${MAX_JSON_DEPTH} levels are accepted`);
  }
  let root: Json;
  try {
    root = JSON.parse(text);
  } catch (err) {
    throw new Invalid('', `the file is not valid JSON (${(err as Error).message.slice(0, 200)})`);
  }
  const reader = new GeoJsonReader();
  const features = reader.root(root);
  if (!features.some((f) => f.geometry !== null)) throw new Invalid('', 'it holds no feature with a geometry; nothing to draw');
  return { features, bounds: reader.bounds() };
}

class GeoJsonReader {
  private west = Infinity;
  private south = Infinity;
  private east = -Infinity;
  private north = -Infinity;

  bounds(): OverlayBounds {
    return [this.west, this.south, this.east, this.north];
  }

  root(value: Json): TilerFeature[] {
    if (!isObject(value)) throw new Invalid('', 'the top level must be a JSON object with a type');
    if (value.type === 'FeatureCollection') {
      if (!Array.isArray(value.features)) throw new Invalid('features', 'a FeatureCollection needs a features array');
      return value.features.map((f, i) => this.feature(f, `features[${i}]`));
    }
    if (value.type === 'Feature') return [this.feature(value, '')];
    if (typeof value.type === 'string' && GEOMETRY_TYPES.includes(value.type)) {
      return [{ type: 'Feature', properties: {}, geometry: this.geometry(value, '') }];
    }
    throw new Invalid('type', `must be FeatureCollection, Feature or a geometry type (${GEOMETRY_TYPES.join(', ')}), got ${describe(value.type)}`);
  }

  private feature(value: Json, where: string): TilerFeature {
    const at = (member: string) => (where ? `${where}.${member}` : member);
    if (!isObject(value) || value.type !== 'Feature') throw new Invalid(where || 'type', 'must be a Feature object ({"type": "Feature", ...})');
    const { properties, geometry, id, tippecanoe } = value;
    if (properties !== undefined && properties !== null && !isObject(properties)) throw new Invalid(at('properties'), 'must be an object or null');
    const props: Record<string, unknown> = { ...(properties ?? {}) };
    const feature: TilerFeature = {
      type: 'Feature',
      properties: props,
      geometry: geometry === null || geometry === undefined ? (null as unknown as GeoJSON.Geometry) : this.geometry(geometry, at('geometry')),
    };
    // MVT ids are unsigned integers; any other id travels as an `id` property instead.
    if (typeof id === 'number' && Number.isSafeInteger(id) && id >= 0) feature.id = id;
    else if ((typeof id === 'string' || typeof id === 'number') && !('id' in props)) props.id = id;
    if (isObject(tippecanoe)) {
      const { minzoom, maxzoom } = tippecanoe;
      feature.tippecanoe = {
        ...(typeof minzoom === 'number' ? { minzoom } : {}),
        ...(typeof maxzoom === 'number' ? { maxzoom } : {}),
      };
    }
    return feature;
  }

  private geometry(value: Json, where: string, nested = false): GeoJSON.Geometry {
    const at = (member: string) => (where ? `${where}.${member}` : member);
    if (!isObject(value)) throw new Invalid(where || 'geometry', 'must be a geometry object or null');
    const type = value.type;
    if (type === 'GeometryCollection') {
      if (nested) throw new Invalid(where, 'a GeometryCollection inside a GeometryCollection is not supported');
      if (!Array.isArray(value.geometries) || value.geometries.length === 0) throw new Invalid(at('geometries'), 'must be a non-empty array');
      return { type, geometries: value.geometries.map((g, i) => this.geometry(g, `${at('geometries')}[${i}]`, true)) };
    }
    const c = value.coordinates;
    const coords = at('coordinates');
    switch (type) {
      case 'Point':
        return { type, coordinates: this.position(c, coords) };
      case 'MultiPoint':
        return { type, coordinates: this.list(c, coords, 1, (p, w) => this.position(p, w)) };
      case 'LineString':
        return { type, coordinates: this.line(c, coords) };
      case 'MultiLineString':
        return { type, coordinates: this.list(c, coords, 1, (l, w) => this.line(l, w)) };
      case 'Polygon':
        return { type, coordinates: this.polygon(c, coords) };
      case 'MultiPolygon':
        return { type, coordinates: this.list(c, coords, 1, (p, w) => this.polygon(p, w)) };
      default:
        throw new Invalid(at('type'), `must be one of ${GEOMETRY_TYPES.join(', ')}, got ${describe(type)}`);
    }
  }

  private list<T>(value: Json, where: string, min: number, item: (v: Json, where: string) => T, what = 'items'): T[] {
    if (!Array.isArray(value)) throw new Invalid(where, 'must be an array');
    if (value.length < min) throw new Invalid(where, `needs at least ${min} ${what}, got ${value.length}`);
    return value.map((v, i) => item(v, `${where}[${i}]`));
  }

  private line(value: Json, where: string): GeoJSON.Position[] {
    return this.list(value, where, 2, (p, w) => this.position(p, w), 'positions');
  }

  private polygon(value: Json, where: string): GeoJSON.Position[][] {
    return this.list(value, where, 1, (ring, w) => {
      const positions = this.list(ring, w, 4, (p, pw) => this.position(p, pw), 'positions (a ring is closed: its last position repeats its first)');
      const first = positions[0]!;
      const last = positions.at(-1)!;
      if (first[0] !== last[0] || first[1] !== last[1]) throw new Invalid(w, 'the ring is not closed: its last position must repeat its first');
      return positions;
    }, 'rings');
  }

  private position(value: Json, where: string): GeoJSON.Position {
    if (!Array.isArray(value) || value.length < 2 || value.length > 3) throw new Invalid(where, 'a position must be [longitude, latitude] or [longitude, latitude, altitude]');
    if (!value.every((n) => typeof n === 'number' && Number.isFinite(n))) throw new Invalid(where, 'a position holds numbers only');
    const [lon, lat] = value as number[];
    if (lon! < -180 || lon! > 180) throw new Invalid(where, `longitude ${lon} is outside -180 to 180 (GeoJSON is [longitude, latitude] in WGS 84)`);
    if (lat! < -90 || lat! > 90) throw new Invalid(where, `latitude ${lat} is outside -90 to 90 (GeoJSON is [longitude, latitude] in WGS 84)`);
    this.west = Math.min(this.west, lon!);
    this.east = Math.max(this.east, lon!);
    this.south = Math.min(this.south, lat!);
    this.north = Math.max(this.north, lat!);
    return value as number[];
  }
}

function describe(value: Json): string {
  return typeof value === 'string' ? JSON.stringify(value.slice(0, 40)) : value === undefined ? 'nothing' : typeof value;
}

/**
 * The offset of the first [ or { that opens level maxDepth + 1, or -1: one pass over the bytes, no
 * recursion (in UTF-8 no byte of a multi-byte character is a quote, backslash or bracket).
 */
export function firstTooDeep(bytes: Uint8Array, maxDepth: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (inString) {
      if (b === 0x5c) i++;
      else if (b === 0x22) inString = false;
    } else if (b === 0x22) inString = true;
    else if (b === 0x5b || b === 0x7b) {
      if (++depth > maxDepth) return i;
    } else if (b === 0x5d || b === 0x7d) depth--;
  }
  return -1;
}
