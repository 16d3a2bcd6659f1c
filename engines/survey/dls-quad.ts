import { rowLine, sectionLineLng } from './dls-model.ts';

/**
 * A cell before any cut: south and north edges on parallels, east and west edges straight in
 * longitude–latitude. `e0`/`w0` are the east/west longitudes on the south edge, `e1`/`w1` on the north.
 */
export interface Quad {
  south: number;
  north: number;
  e0: number;
  w0: number;
  e1: number;
  w1: number;
}

export function rectQuad(west: number, south: number, east: number, north: number): Quad {
  return { south, north, e0: east, w0: west, e1: east, w1: west };
}

/** The section at (row from the south, column from the east) of a township with the given boundaries. */
export function sectionQuad(east: number, west: number, township: number, row: number, column: number): Quad {
  return {
    south: rowLine(township, row),
    north: rowLine(township, row + 1),
    e0: sectionLineLng(east, west, township, row, column),
    w0: sectionLineLng(east, west, township, row, column + 1),
    e1: sectionLineLng(east, west, township, row + 1, column),
    w1: sectionLineLng(east, west, township, row + 1, column + 1),
  };
}

const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

/** Longitude at fraction `u` of the way west across the quad, at fraction `v` of its latitude span. */
export function quadLng(quad: Quad, u: number, v: number): number {
  return lerp(lerp(quad.e0, quad.w0, u), lerp(quad.e1, quad.w1, u), v);
}

/** Part (row, column from the east) of an n × n equal split of a quad. */
export function subQuad(quad: Quad, n: number, row: number, column: number): Quad {
  const v0 = row / n;
  const v1 = (row + 1) / n;
  const u0 = column / n;
  const u1 = (column + 1) / n;
  return {
    south: lerp(quad.south, quad.north, v0),
    north: lerp(quad.south, quad.north, v1),
    e0: quadLng(quad, u0, v0),
    w0: quadLng(quad, u1, v0),
    e1: quadLng(quad, u0, v1),
    w1: quadLng(quad, u1, v1),
  };
}

/** Fractions (u west from the east edge, v north from the south edge) of a point within a quad. */
export function quadFractions(quad: Quad, lng: number, lat: number): { u: number; v: number } {
  const v = (lat - quad.south) / (quad.north - quad.south);
  const east = lerp(quad.e0, quad.e1, v);
  const west = lerp(quad.w0, quad.w1, v);
  return { u: (east - lng) / (east - west), v };
}

/** Counter-clockwise closed ring SW, SE, NE, NW, SW. */
export function quadRing(quad: Quad): [number, number][] {
  return [
    [quad.w0, quad.south],
    [quad.e0, quad.south],
    [quad.e1, quad.north],
    [quad.w1, quad.north],
    [quad.w0, quad.south],
  ];
}

/** The part of a closed ring east of `lng` (a cut at a meridian west of the cell's range); [] when none. */
export function clipRingEastOf(ring: [number, number][], lng: number): [number, number][] {
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < ring.length; i++) {
    const a = ring[i]!;
    const b = ring[i + 1]!;
    const aIn = a[0] >= lng;
    const bIn = b[0] >= lng;
    if (aIn) out.push(a);
    if (aIn !== bIn) out.push([lng, a[1] + ((b[1] - a[1]) * (lng - a[0])) / (b[0] - a[0])]);
  }
  if (out.length < 3) return [];
  out.push(out[0]!);
  return out;
}

/** Planar area (square degrees) and centroid of a closed ring; area is positive for counter-clockwise rings. */
export function ringAreaCentroid(ring: [number, number][]): { area: number; centroid: [number, number] } {
  let twice = 0;
  let cx = 0;
  let cy = 0;
  const [ox, oy] = ring[0]!;
  for (let i = 0; i + 1 < ring.length; i++) {
    const x0 = ring[i]![0] - ox;
    const y0 = ring[i]![1] - oy;
    const x1 = ring[i + 1]![0] - ox;
    const y1 = ring[i + 1]![1] - oy;
    const cross = x0 * y1 - x1 * y0;
    twice += cross;
    cx += (x0 + x1) * cross;
    cy += (y0 + y1) * cross;
  }
  return { area: twice / 2, centroid: [ox + cx / (3 * twice), oy + cy / (3 * twice)] };
}
