/**
 * Province and territory polygons from a GeoJSON FeatureCollection of Polygon / MultiPolygon
 * features, each matched to a province by its properties; and a fast point → province locator
 * for millions of points.
 *
 * Matching tries, in order: iso_3166_2, postal, code, abbrev, name_en, name_fr, name, gn_name,
 * woe_name, NAME, PRNAME / PRENAME / PRFNAME (Statistics Canada, `English / French`), through
 * resolveRegion (any spelling); then a Statistics Canada SGC code (PRUID) and a FIPS code
 * (`CA02`). A feature none of these resolves is refused, naming it (the file is not what we
 * take it for); several features of one province are merged.
 */
import { readFile } from 'node:fs/promises';
import { InvalidInputError } from '../errors.ts';
import { provinceByAdmin1, provinceBySgc, resolveRegion } from '../../engines/geocoding/text/provinces.ts';

type Ring = Array<[number, number]>;
/** Outer ring then holes. */
export type Polygon = Ring[];

export interface RegionShape {
  /** Two-letter province / territory code. */
  code: string;
  /** The matched features' names as written (first one). */
  name: string;
  polygons: Polygon[];
  /** [minLng, minLat, maxLng, maxLat]. */
  bbox: [number, number, number, number];
  /** Representative point inside the region: centroid of its largest polygon when inside it, else the middle of the widest interior span through that centroid. */
  point: [number, number];
}

export type RegionPolygons = RegionShape[];

const NAME_KEYS = ['iso_3166_2', 'postal', 'code', 'abbrev', 'name_en', 'name_fr', 'name', 'gn_name', 'woe_name', 'NAME', 'PRNAME', 'PRENAME', 'PRFNAME'];
const SGC_KEYS = ['PRUID', 'pruid', 'sgc'];
const FIPS_KEYS = ['fips', 'FIPS'];

function codeOfProperties(props: Record<string, unknown>): string | null {
  for (const key of NAME_KEYS) {
    const v = props[key];
    if (typeof v !== 'string' || v.trim() === '') continue;
    const code = resolveRegion(v) ?? v.split('/').map((part) => resolveRegion(part)).find((c) => c) ?? null;
    if (code) return code;
  }
  for (const key of SGC_KEYS) {
    const v = props[key];
    if (typeof v === 'string' || typeof v === 'number') {
      const p = provinceBySgc(String(v));
      if (p) return p.code;
    }
  }
  for (const key of FIPS_KEYS) {
    const m = typeof props[key] === 'string' ? /^CA(\d\d)$/.exec(props[key] as string) : null;
    const p = m ? provinceByAdmin1(m[1]!) : undefined;
    if (p) return p.code;
  }
  return null;
}

function featureLabel(props: Record<string, unknown>, index: number): string {
  for (const key of NAME_KEYS) if (typeof props[key] === 'string' && props[key]) return `"${props[key] as string}"`;
  return `#${index}`;
}

export async function readRegions(path: string): Promise<RegionPolygons> {
  let doc: unknown;
  try {
    doc = JSON.parse(await readFile(path, 'utf8'));
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOENT') throw new InvalidInputError(`regions file not found: ${path}`);
    if (e instanceof SyntaxError) throw new InvalidInputError(`regions file ${path} is not JSON: ${e.message}`);
    throw err;
  }
  return regionsFromGeoJson(doc, path);
}

export function regionsFromGeoJson(doc: unknown, label = 'regions GeoJSON'): RegionPolygons {
  const fc = doc as { type?: unknown; features?: unknown };
  if (fc === null || typeof fc !== 'object' || fc.type !== 'FeatureCollection' || !Array.isArray(fc.features)) {
    throw new InvalidInputError(`${label} is not a GeoJSON FeatureCollection`);
  }
  const byCode = new Map<string, { name: string; polygons: Polygon[] }>();
  const unmatched: string[] = [];
  fc.features.forEach((feature: unknown, i: number) => {
    const f = feature as { properties?: Record<string, unknown> | null; geometry?: { type?: unknown; coordinates?: unknown } | null };
    const props = f?.properties ?? {};
    const geom = f?.geometry;
    if (!geom || (geom.type !== 'Polygon' && geom.type !== 'MultiPolygon')) {
      throw new InvalidInputError(`${label}: feature ${featureLabel(props, i)} is not a Polygon or MultiPolygon (${String(geom?.type ?? 'no geometry')})`);
    }
    const code = codeOfProperties(props);
    if (!code) {
      unmatched.push(featureLabel(props, i));
      return;
    }
    const polygons = (geom.type === 'Polygon' ? [geom.coordinates] : (geom.coordinates as unknown[])).map((p) =>
      checkPolygon(p, `${label}: feature ${featureLabel(props, i)}`),
    );
    const entry = byCode.get(code);
    if (entry) entry.polygons.push(...polygons);
    else byCode.set(code, { name: featureLabel(props, i).replace(/^"|"$/g, ''), polygons });
  });
  if (unmatched.length > 0) {
    throw new InvalidInputError(`${label}: no province or territory matches feature(s) ${unmatched.join(', ')} (looked at ${[...NAME_KEYS, ...SGC_KEYS, ...FIPS_KEYS].join(', ')})`);
  }
  if (byCode.size === 0) throw new InvalidInputError(`${label} has no features`);
  return [...byCode].map(([code, { name, polygons }]) => ({ code, name, polygons, bbox: bboxOf(polygons), point: representativePoint(polygons) }));
}

function checkPolygon(p: unknown, where: string): Polygon {
  if (!Array.isArray(p) || p.length === 0) throw new InvalidInputError(`${where}: a polygon without rings`);
  return p.map((ring: unknown) => {
    if (!Array.isArray(ring) || ring.length < 4) throw new InvalidInputError(`${where}: a ring with fewer than 4 positions`);
    return ring.map((pos: unknown) => {
      const [x, y] = Array.isArray(pos) ? pos : [];
      if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y) || Math.abs(x) > 180 || Math.abs(y) > 90) {
        throw new InvalidInputError(`${where}: invalid position ${JSON.stringify(pos)}`);
      }
      return [x, y] as [number, number];
    });
  });
}

function bboxOf(polygons: Polygon[]): [number, number, number, number] {
  const b: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polygons) {
    for (const [x, y] of p[0]!) {
      if (x < b[0]) b[0] = x;
      if (y < b[1]) b[1] = y;
      if (x > b[2]) b[2] = x;
      if (y > b[3]) b[3] = y;
    }
  }
  return b;
}

// ---- point in polygon, accelerated by latitude bands -------------------------------------

/** A ring with its edges bucketed into horizontal bands: a ray cast only visits its band. */
class BandedRing {
  readonly xs: Float64Array;
  readonly ys: Float64Array;
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  private readonly bandHeight: number;
  private readonly bandCount: number;
  private readonly offsets: Uint32Array;
  private readonly edges: Uint32Array;

  constructor(ring: Ring) {
    let n = ring.length;
    const [fx, fy] = ring[0]!;
    const [lx, ly] = ring[n - 1]!;
    if (fx === lx && fy === ly) n--;
    this.xs = new Float64Array(n);
    this.ys = new Float64Array(n);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      const [x, y] = ring[i]!;
      this.xs[i] = x;
      this.ys[i] = y;
      if (x < minX) minX = x;
      if (x > maxX) maxX = x;
      if (y < minY) minY = y;
      if (y > maxY) maxY = y;
    }
    this.minX = minX;
    this.minY = minY;
    this.maxX = maxX;
    this.maxY = maxY;
    this.bandCount = Math.max(1, Math.min(4096, Math.ceil(n / 4)));
    this.bandHeight = (maxY - minY) / this.bandCount || 1;
    const counts = new Uint32Array(this.bandCount + 1);
    const range = (i: number): [number, number] => {
      const j = i + 1 === n ? 0 : i + 1;
      return [this.band(Math.min(this.ys[i]!, this.ys[j]!)), this.band(Math.max(this.ys[i]!, this.ys[j]!))];
    };
    for (let i = 0; i < n; i++) {
      const [b0, b1] = range(i);
      for (let b = b0; b <= b1; b++) counts[b + 1]!++;
    }
    for (let b = 0; b < this.bandCount; b++) counts[b + 1]! += counts[b]!;
    this.offsets = counts;
    this.edges = new Uint32Array(counts[this.bandCount]!);
    const fill = counts.slice(0, this.bandCount);
    for (let i = 0; i < n; i++) {
      const [b0, b1] = range(i);
      for (let b = b0; b <= b1; b++) this.edges[fill[b]!++] = i;
    }
  }

  band(y: number): number {
    const b = Math.floor((y - this.minY) / this.bandHeight);
    return b < 0 ? 0 : b >= this.bandCount ? this.bandCount - 1 : b;
  }

  contains(x: number, y: number): boolean {
    if (x < this.minX || x > this.maxX || y < this.minY || y > this.maxY) return false;
    const b = this.band(y);
    const xs = this.xs;
    const ys = this.ys;
    const n = xs.length;
    let inside = false;
    for (let k = this.offsets[b]!, end = this.offsets[b + 1]!; k < end; k++) {
      const i = this.edges[k]!;
      const j = i + 1 === n ? 0 : i + 1;
      const yi = ys[i]!;
      const yj = ys[j]!;
      if (yi > y !== yj > y && x < ((xs[j]! - xs[i]!) * (y - yi)) / (yj - yi) + xs[i]!) inside = !inside;
    }
    return inside;
  }

  /** Smallest distance in metres (equirectangular) from the point to an edge within `tolY` degrees of latitude. */
  distance(x: number, y: number, tolY: number, kx: number): number {
    const xs = this.xs;
    const ys = this.ys;
    const n = xs.length;
    let best = Infinity;
    const b0 = this.band(y - tolY);
    const b1 = this.band(y + tolY);
    for (let k = this.offsets[b0]!, end = this.offsets[b1 + 1]!; k < end; k++) {
      const i = this.edges[k]!;
      const j = i + 1 === n ? 0 : i + 1;
      const ax = (xs[i]! - x) * kx;
      const ay = (ys[i]! - y) * M_PER_DEG;
      const bx = (xs[j]! - x) * kx;
      const by = (ys[j]! - y) * M_PER_DEG;
      const dx = bx - ax;
      const dy = by - ay;
      const len2 = dx * dx + dy * dy;
      const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, -(ax * dx + ay * dy) / len2));
      const px = ax + t * dx;
      const py = ay + t * dy;
      const d = Math.sqrt(px * px + py * py);
      if (d < best) best = d;
    }
    return best;
  }
}

const M_PER_DEG = 111_320;

interface IndexedPolygon {
  code: string;
  outer: BandedRing;
  holes: BandedRing[];
}

export interface RegionLocatorOptions {
  /**
   * A point in no polygon (generalised coastlines cut off waterfront addresses) takes the
   * region whose boundary is nearest, when within this many metres. Default 10 000; 0 = off.
   */
  toleranceMeters?: number;
}

/** (lng, lat) → two-letter code of the region containing the point, or null. */
export function regionLocator(regions: RegionPolygons, options: RegionLocatorOptions = {}): (lng: number, lat: number) => string | null {
  const tolerance = options.toleranceMeters ?? 10_000;
  const polygons: IndexedPolygon[] = [];
  for (const r of regions) {
    for (const p of r.polygons) polygons.push({ code: r.code, outer: new BandedRing(p[0]!), holes: p.slice(1).map((h) => new BandedRing(h)) });
  }
  // Largest first: most points fall in a few big polygons.
  polygons.sort((a, b) => (b.outer.maxX - b.outer.minX) * (b.outer.maxY - b.outer.minY) - (a.outer.maxX - a.outer.minX) * (a.outer.maxY - a.outer.minY));
  return (lng, lat) => {
    for (const p of polygons) {
      if (p.outer.contains(lng, lat) && !p.holes.some((h) => h.contains(lng, lat))) return p.code;
    }
    if (tolerance <= 0 || !Number.isFinite(lng) || !Number.isFinite(lat)) return null;
    const tolY = tolerance / M_PER_DEG;
    const kx = M_PER_DEG * Math.cos((lat * Math.PI) / 180);
    const tolX = kx > 0 ? tolerance / kx : 360;
    let best: string | null = null;
    let bestD = tolerance;
    for (const p of polygons) {
      const o = p.outer;
      if (lng < o.minX - tolX || lng > o.maxX + tolX || lat < o.minY - tolY || lat > o.maxY + tolY) continue;
      const d = o.distance(lng, lat, tolY, kx);
      if (d <= bestD) {
        bestD = d;
        best = p.code;
      }
    }
    return best;
  };
}

// ---- representative point -----------------------------------------------------------------

function ringArea(ring: Ring): number {
  let a = 0;
  for (let i = 0, n = ring.length; i < n; i++) {
    const [x1, y1] = ring[i]!;
    const [x2, y2] = ring[(i + 1) % n]!;
    a += x1 * y2 - x2 * y1;
  }
  return a / 2;
}

function ringCentroid(ring: Ring): [number, number] {
  const [x0, y0] = ring[0]!;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0, n = ring.length; i < n; i++) {
    const ax = ring[i]![0] - x0;
    const ay = ring[i]![1] - y0;
    const bx = ring[(i + 1) % n]![0] - x0;
    const by = ring[(i + 1) % n]![1] - y0;
    const c = ax * by - bx * ay;
    a += c;
    cx += (ax + bx) * c;
    cy += (ay + by) * c;
  }
  return a === 0 ? [x0, y0] : [x0 + cx / (3 * a), y0 + cy / (3 * a)];
}

function representativePoint(polygons: Polygon[]): [number, number] {
  let largest = polygons[0]!;
  let largestArea = -1;
  for (const p of polygons) {
    const a = Math.abs(ringArea(p[0]!)) - p.slice(1).reduce((s, h) => s + Math.abs(ringArea(h)), 0);
    if (a > largestArea) {
      largestArea = a;
      largest = p;
    }
  }
  const [cx, cy] = ringCentroid(largest[0]!);
  const rings = largest.map((r) => new BandedRing(r));
  if (rings[0]!.contains(cx, cy) && !rings.slice(1).some((h) => h.contains(cx, cy))) return [cx, cy];
  // Widest interior span of the horizontal line through the centroid.
  const crossings: number[] = [];
  for (const ring of largest) {
    for (let i = 0, n = ring.length; i < n; i++) {
      const [x1, y1] = ring[i]!;
      const [x2, y2] = ring[(i + 1) % n]!;
      if (y1 > cy !== y2 > cy) crossings.push(x1 + ((cy - y1) * (x2 - x1)) / (y2 - y1));
    }
  }
  crossings.sort((a, b) => a - b);
  let best: [number, number] = [cx, cy];
  let widest = -1;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const w = crossings[i + 1]! - crossings[i]!;
    if (w > widest) {
      widest = w;
      best = [(crossings[i]! + crossings[i + 1]!) / 2, cy];
    }
  }
  return best;
}
