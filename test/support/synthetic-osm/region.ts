/**
 * The synthetic province: a box in southern Ontario and Quebec whose area grows with the node
 * target (about as dense as a real extract), the size presets, sub-seeds and the metre frames
 * that place a town's grid on the ground. Inland on purpose: no coastline is ever written, so
 * both builds fall back to their non-OSM land (tilemaker's missing shapefiles, our Natural Earth).
 */
import { METRES_PER_DEGREE } from '../../../lib/geo/haversine.ts';

export const SIZES = { small: 1_000_000, medium: 3_500_000, large: 11_000_000 } as const;
export type SizeName = keyof typeof SIZES;

/** The box of the large size (8° × 3.6°, Georgian Bay to the Eastern Townships); smaller targets shrink it about its centre. */
const CENTRE = { lng: -75.5, lat: 45.3 } as const;
const LARGE_SPAN = { lng: 8, lat: 3.6 } as const;

export interface Region {
  west: number;
  south: number;
  east: number;
  north: number;
  /** Towns east of this longitude are in Quebec (French names), like the Ottawa River border. */
  quebecFrom: number;
}

export function regionFor(targetNodes: number): Region {
  const scale = Math.min(1.6, Math.max(0.06, Math.sqrt(targetNodes / SIZES.large)));
  const halfLng = (LARGE_SPAN.lng * scale) / 2;
  const halfLat = (LARGE_SPAN.lat * scale) / 2;
  return {
    west: CENTRE.lng - halfLng, east: CENTRE.lng + halfLng, south: CENTRE.lat - halfLat, north: CENTRE.lat + halfLat,
    quebecFrom: CENTRE.lng + 0.1 * halfLng,
  };
}

export const regionBbox = (r: Region): [number, number, number, number] => [r.west, r.south, r.east, r.north];

/** A well-mixed 32-bit seed for part `part` of the file (a town, the road network, ...) under the run's seed. */
export function subSeed(seed: number, salt: number, part: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(salt + 1, 0xc2b2ae35) ^ Math.imul(part + 1, 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) >>> 0;
}

export const metresPerDegreeLng = (lat: number): number => METRES_PER_DEGREE * Math.cos((lat * Math.PI) / 180);

/** The point `east`, `north` metres from lng/lat (flat-earth, fine at town scale). */
export function offsetMetres(lng: number, lat: number, east: number, north: number): [number, number] {
  return [lng + east / metresPerDegreeLng(lat), lat + north / METRES_PER_DEGREE];
}

/** A town's grid frame: u along its rotated street rows, v across them, metres from its centre. */
export class Frame {
  private readonly cos: number;
  private readonly sin: number;
  private readonly mLng: number;

  constructor(readonly lng: number, readonly lat: number, rotation: number) {
    this.cos = Math.cos(rotation);
    this.sin = Math.sin(rotation);
    this.mLng = metresPerDegreeLng(lat);
  }

  lngOf(u: number, v: number): number {
    return this.lng + (u * this.cos - v * this.sin) / this.mLng;
  }

  latOf(u: number, v: number): number {
    return this.lat + (u * this.sin + v * this.cos) / METRES_PER_DEGREE;
  }

  /** East/north metres of a lng/lat, in the frame (u, v). */
  toFrame(lng: number, lat: number): [number, number] {
    const x = (lng - this.lng) * this.mLng;
    const y = (lat - this.lat) * METRES_PER_DEGREE;
    return [x * this.cos + y * this.sin, -x * this.sin + y * this.cos];
  }
}
