/**
 * Small geodesy for road events: GeoJSON checks, bounding boxes and distances in metres between
 * points, lines, areas and routes. Distances are great-circle (haversine) to the nearest point of
 * a segment, found in a local equirectangular frame; good to well under a metre at road scales.
 * An area (Polygon, MultiPolygon) is measured to its ring edges, and is 0 m from what lies inside it.
 */
import type { BBox } from '../../lib/geo/bbox.ts';
import { haversineMetres, METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';
import { nearestFractionToOrigin } from '../../lib/geo/planar.ts';

export type LngLatPosition = [number, number];

export type RoadGeometry =
  | { type: 'Point'; coordinates: LngLatPosition }
  | { type: 'MultiPoint'; coordinates: LngLatPosition[] }
  | { type: 'LineString'; coordinates: LngLatPosition[] }
  | { type: 'MultiLineString'; coordinates: LngLatPosition[][] }
  | { type: 'Polygon'; coordinates: LngLatPosition[][] }
  | { type: 'MultiPolygon'; coordinates: LngLatPosition[][][] };

const RAD = Math.PI / 180;

function isPosition(value: unknown): value is LngLatPosition {
  if (!Array.isArray(value) || value.length < 2) return false;
  const [lon, lat] = value as unknown[];
  return typeof lon === 'number' && typeof lat === 'number' && Number.isFinite(lon) && Number.isFinite(lat) &&
    lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90;
}

const position = (p: LngLatPosition): LngLatPosition => [p[0], p[1]];

/** A GeoJSON linear ring: 4 or more positions, the last equal to the first (RFC 7946 3.1.6). */
function isRing(value: unknown): value is LngLatPosition[] {
  if (!Array.isArray(value) || value.length < 4 || !value.every(isPosition)) return false;
  const [first, last] = [value[0] as LngLatPosition, value.at(-1) as LngLatPosition];
  return first[0] === last[0] && first[1] === last[1];
}

const isPolygon = (value: unknown): value is LngLatPosition[][] => Array.isArray(value) && value.length > 0 && value.every(isRing);

/**
 * A GeoJSON Point, MultiPoint, LineString, MultiLineString, Polygon or MultiPolygon with WGS84
 * positions (extra ordinates dropped), or the reason it is not one.
 */
export function readGeometry(value: unknown): { ok: true; geometry: RoadGeometry } | { ok: false; reason: string } {
  if (!value || typeof value !== 'object') return { ok: false, reason: 'geography is missing' };
  const { type, coordinates } = value as { type?: unknown; coordinates?: unknown };
  const bad = (what: string) => ({ ok: false as const, reason: `geography ${String(type)} has ${what}` });
  switch (type) {
    case 'Point':
      return isPosition(coordinates) ? { ok: true, geometry: { type, coordinates: position(coordinates) } } : bad('no valid lng,lat position');
    case 'MultiPoint':
      if (!Array.isArray(coordinates) || !coordinates.length || !coordinates.every(isPosition)) return bad('invalid positions');
      return { ok: true, geometry: { type, coordinates: coordinates.map(position) } };
    case 'LineString':
      if (!Array.isArray(coordinates) || coordinates.length < 2 || !coordinates.every(isPosition)) return bad('fewer than 2 valid positions');
      return { ok: true, geometry: { type, coordinates: coordinates.map(position) } };
    case 'MultiLineString':
      if (!Array.isArray(coordinates) || !coordinates.length ||
        !coordinates.every((line) => Array.isArray(line) && line.length >= 2 && line.every(isPosition))) return bad('a part with fewer than 2 valid positions');
      return { ok: true, geometry: { type, coordinates: (coordinates as LngLatPosition[][]).map((line) => line.map(position)) } };
    case 'Polygon':
      if (!isPolygon(coordinates)) return bad('a ring that is not 4 or more valid positions ending where it starts');
      return { ok: true, geometry: { type, coordinates: coordinates.map((ring) => ring.map(position)) } };
    case 'MultiPolygon':
      if (!Array.isArray(coordinates) || !coordinates.length || !coordinates.every(isPolygon)) return bad('a ring that is not 4 or more valid positions ending where it starts');
      return { ok: true, geometry: { type, coordinates: (coordinates as LngLatPosition[][][]).map((polygon) => polygon.map((ring) => ring.map(position))) } };
    default:
      return { ok: false, reason: `geography type ${JSON.stringify(type ?? null)} is not supported (Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon)` };
  }
}

/** The geometry as polylines; a point is a one-vertex line, an area its rings. */
export function geometryParts(g: RoadGeometry): LngLatPosition[][] {
  switch (g.type) {
    case 'Point':
      return [[g.coordinates]];
    case 'MultiPoint':
      return g.coordinates.map((p) => [p]);
    case 'LineString':
      return [g.coordinates];
    case 'MultiLineString':
    case 'Polygon':
      return g.coordinates;
    case 'MultiPolygon':
      return g.coordinates.flat();
  }
}

/** The areas of the geometry (each an outer ring and its holes); none for points and lines. */
function geometryAreas(g: RoadGeometry): LngLatPosition[][][] {
  return g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
}

/** Whether (lon, lat) lies inside an area of the geometry (even–odd rule, so holes are outside). */
export function roadGeometryContains(g: RoadGeometry, lon: number, lat: number): boolean {
  if (g.type !== 'Polygon' && g.type !== 'MultiPolygon') return false;
  for (const rings of geometryAreas(g)) {
    let inside = false;
    for (const ring of rings) {
      for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
        const [xi, yi] = ring[i]!, [xj, yj] = ring[j]!;
        if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
      }
    }
    if (inside) return true;
  }
  return false;
}

export function pointsBBox(points: Iterable<LngLatPosition>): BBox {
  const box = { minLon: Infinity, minLat: Infinity, maxLon: -Infinity, maxLat: -Infinity };
  for (const [lon, lat] of points) {
    if (lon < box.minLon) box.minLon = lon;
    if (lon > box.maxLon) box.maxLon = lon;
    if (lat < box.minLat) box.minLat = lat;
    if (lat > box.maxLat) box.maxLat = lat;
  }
  return box;
}

export const geometryBBox = (g: RoadGeometry): BBox => pointsBBox(geometryParts(g).flat());

export function bboxesIntersect(a: BBox, b: BBox): boolean {
  return a.minLon <= b.maxLon && a.maxLon >= b.minLon && a.minLat <= b.maxLat && a.maxLat >= b.minLat;
}

/** The box grown by `metres` on every side (longitude scaled at the box's most poleward latitude). */
export function expandBBox(b: BBox, metres: number): BBox {
  const dLat = metres / METRES_PER_DEGREE;
  const poleward = Math.min(89, Math.max(Math.abs(b.minLat), Math.abs(b.maxLat)) + dLat);
  const dLon = metres / (METRES_PER_DEGREE * Math.cos(poleward * RAD));
  return { minLon: b.minLon - dLon, minLat: b.minLat - dLat, maxLon: b.maxLon + dLon, maxLat: b.maxLat + dLat };
}

/** The box around a circle of `metres` about (lon, lat). */
export const circleBBox = (lon: number, lat: number, metres: number): BBox => expandBBox({ minLon: lon, minLat: lat, maxLon: lon, maxLat: lat }, metres);


/** Metres from (lon, lat) to the nearest point of segment a–b. */
export function pointSegmentMetres(lon: number, lat: number, a: LngLatPosition, b: LngLatPosition): number {
  const k = Math.cos(lat * RAD);
  const ax = (a[0] - lon) * k, ay = a[1] - lat;
  const bx = (b[0] - lon) * k, by = b[1] - lat;
  const t = nearestFractionToOrigin(ax, ay, bx, by);
  return haversineMetres(lon, lat, a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1]));
}

/**
 * Metres from (lon, lat) to the nearest point of the geometry. The nearest point is found in a
 * local equirectangular frame centred on (lon, lat), then measured great-circle: one haversine
 * per geometry instead of one per segment.
 */
export function pointGeometryMetres(lon: number, lat: number, g: RoadGeometry): number {
  if ((g.type === 'Polygon' || g.type === 'MultiPolygon') && roadGeometryContains(g, lon, lat)) return 0;
  const k = Math.cos(lat * RAD);
  let bestSq = Infinity, bestLon = lon, bestLat = lat;
  for (const part of geometryParts(g)) {
    let ax = (part[0]![0] - lon) * k, ay = part[0]![1] - lat;
    if (part.length === 1 && ax * ax + ay * ay < bestSq) {
      bestSq = ax * ax + ay * ay;
      bestLon = part[0]![0];
      bestLat = part[0]![1];
    }
    for (let i = 1; i < part.length; i++) {
      const bx = (part[i]![0] - lon) * k, by = part[i]![1] - lat;
      const t = nearestFractionToOrigin(ax, ay, bx, by);
      const fx = ax + t * (bx - ax), fy = ay + t * (by - ay);
      if (fx * fx + fy * fy < bestSq) {
        bestSq = fx * fx + fy * fy;
        bestLon = lon + fx / k;
        bestLat = lat + fy;
      }
      ax = bx;
      ay = by;
    }
  }
  return haversineMetres(lon, lat, bestLon, bestLat);
}

/** Whether segments p1–p2 and q1–q2 cross (planar test in a frame local to p1, where p1 is the origin). */
function segmentsCross(p1: LngLatPosition, p2: LngLatPosition, q1: LngLatPosition, q2: LngLatPosition): boolean {
  const k = Math.cos(p1[1] * RAD);
  const px = (p2[0] - p1[0]) * k, py = p2[1] - p1[1];
  const ax = (q1[0] - p1[0]) * k, ay = q1[1] - p1[1];
  const bx = (q2[0] - p1[0]) * k, by = q2[1] - p1[1];
  // Which side of each segment the other's ends lie on (cross products).
  const d1 = (bx - ax) * (0 - ay) - (by - ay) * (0 - ax), d2 = (bx - ax) * (py - ay) - (by - ay) * (px - ax);
  const d3 = px * ay - py * ax, d4 = px * by - py * bx;
  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

/** Metres between two segments (a single-vertex segment is a point). */
export function segmentSegmentMetres(p1: LngLatPosition, p2: LngLatPosition, q1: LngLatPosition, q2: LngLatPosition): number {
  if (segmentsCross(p1, p2, q1, q2)) return 0;
  return Math.min(
    pointSegmentMetres(p1[0], p1[1], q1, q2),
    pointSegmentMetres(p2[0], p2[1], q1, q2),
    pointSegmentMetres(q1[0], q1[1], p1, p2),
    pointSegmentMetres(q2[0], q2[1], p1, p2),
  );
}

/** Decodes a Google encoded polyline (precision 5) into [lng, lat] positions. */
export function decodePolyline(encoded: string, precision = 5): LngLatPosition[] | null {
  const factor = 10 ** precision;
  const positions: LngLatPosition[] = [];
  let index = 0, lat = 0, lon = 0;
  const next = (): number | null => {
    let result = 0, shift = 0, byte: number;
    do {
      if (index >= encoded.length) return null;
      byte = encoded.charCodeAt(index++) - 63;
      if (byte < 0 || byte > 63) return null;
      result |= (byte & 0x1f) << shift;
      shift += 5;
    } while (byte >= 0x20 && shift < 35);
    return result & 1 ? ~(result >> 1) : result >> 1;
  };
  while (index < encoded.length) {
    const dLat = next();
    const dLon = next();
    if (dLat === null || dLon === null) return null;
    lat += dLat;
    lon += dLon;
    positions.push([lon / factor, lat / factor]);
  }
  return positions.every(isPosition) ? positions : null;
}

/** Whether segment a–b has a point inside the box (Liang–Barsky clipping, planar in degrees). */
function segmentTouchesBBox(a: LngLatPosition, b: LngLatPosition, box: BBox): boolean {
  let t0 = 0, t1 = 1;
  const dx = b[0] - a[0], dy = b[1] - a[1];
  const edges: [number, number][] = [[-dx, a[0] - box.minLon], [dx, box.maxLon - a[0]], [-dy, a[1] - box.minLat], [dy, box.maxLat - a[1]]];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return false;
      continue;
    }
    const r = q / p;
    if (p < 0) t0 = Math.max(t0, r);
    else t1 = Math.min(t1, r);
    if (t0 > t1) return false;
  }
  return true;
}

/** Whether any point of the geometry lies in the box (edges included; an area also when it holds the box). */
export function geometryTouchesBBox(g: RoadGeometry, box: BBox): boolean {
  if (roadGeometryContains(g, box.minLon, box.minLat)) return true;
  for (const part of geometryParts(g)) {
    if (part.length === 1) {
      const [lon, lat] = part[0]!;
      if (lon >= box.minLon && lon <= box.maxLon && lat >= box.minLat && lat <= box.maxLat) return true;
      continue;
    }
    for (let i = 1; i < part.length; i++) if (segmentTouchesBBox(part[i - 1]!, part[i]!, box)) return true;
  }
  return false;
}
