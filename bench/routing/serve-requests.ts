/**
 * The requests of the serving benchmark, drawn (seeded) from the graph's nodes: every point is a
 * node moved up to JITTER_METRES in a random direction, so it snaps to a road beside it.
 * - short (urban) routes: a random node to the node nearest a point 2–15 km away;
 * - long (national) routes: two random nodes anywhere;
 * - isochrones: a random node, 30 minutes by car;
 * - 10×10 matrices: 20 nodes nearest random points within MATRIX_RADIUS_KM of a random node, so no
 *   two are more than twice that apart in a straight line (the road ceiling is 250 km).
 * Nodes are drawn uniformly, so trips start where the nodes are: mostly in cities.
 */
import Flatbush from 'flatbush';
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import { fromMicroDegrees } from '../../engines/routing/graph-format.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { seededRandom, type Random } from '../../lib/seeded-random.ts';
import { offsetDegrees } from '../../test/support/routing/synthetic-cities.ts';

const JITTER_METRES = 20;
export const MATRIX_RADIUS_KM = 50;
export const ISOCHRONE_MINUTES = 30;

export interface BenchRequest {
  method: 'GET' | 'POST';
  /** Path and query, without the key. */
  path: string;
  body?: string;
}

export interface RequestSets {
  shortRoutes: BenchRequest[];
  longRoutes: BenchRequest[];
  isochrones: BenchRequest[];
  matrices: BenchRequest[];
  /** Mean straight-line metres between the ends of each kind of route. */
  shortMeanMetres: number;
  longMeanMetres: number;
}

type Point = [number, number];
const fixed = ([lng, lat]: Point) => `${lng.toFixed(6)},${lat.toFixed(6)}`;

/** A point up to `metres` from (x, y) in a random direction. */
function offset(random: Random, [x, y]: Point, metres: number): Point {
  const angle = 2 * Math.PI * random();
  return offsetDegrees(x, y, metres * Math.cos(angle), metres * Math.sin(angle));
}

/** An isochrone's origin: a random node moved up to JITTER_METRES, at six decimals as the request sends it. */
export function isochroneOrigin(arrays: GraphArrays, random: Random): Point {
  const v = random.int(arrays.nodeLng.length);
  const [x, y] = offset(random, [fromMicroDegrees(arrays.nodeLng[v]!), fromMicroDegrees(arrays.nodeLat[v]!)], JITTER_METRES * random());
  return [Number(x.toFixed(6)), Number(y.toFixed(6))];
}

export function benchRequests(arrays: GraphArrays, counts: { routes: number; isochrones: number; matrices: number }, seed: number): RequestSets {
  const random: Random = seededRandom(seed);
  const n = arrays.nodeLng.length;
  const lng = (v: number) => fromMicroDegrees(arrays.nodeLng[v]!);
  const lat = (v: number) => fromMicroDegrees(arrays.nodeLat[v]!);
  const index = new Flatbush(n, 16, Float64Array);
  for (let v = 0; v < n; v++) index.add(lng(v), lat(v), lng(v), lat(v));
  index.finish();

  const node = (v: number): Point => [lng(v), lat(v)];
  const near = (p: Point) => offset(random, p, JITTER_METRES * random());
  const nearestNode = ([x, y]: Point) => index.neighbors(x, y, 1)[0]!;
  const metres = (a: Point, b: Point) => haversineMetres(a[0], a[1], b[0], b[1]);
  const route = (a: Point, b: Point): BenchRequest => ({ method: 'GET', path: `/route?from=${fixed(a)}&to=${fixed(b)}` });

  let shortSum = 0;
  const shortRoutes = Array.from({ length: counts.routes }, () => {
    const a = node(random.int(n));
    const b = node(nearestNode(offset(random, a, 2000 + 13_000 * random())));
    shortSum += metres(a, b);
    return route(near(a), near(b));
  });
  let longSum = 0;
  const longRoutes = Array.from({ length: counts.routes }, () => {
    const a = node(random.int(n));
    const b = node(random.int(n));
    longSum += metres(a, b);
    return route(near(a), near(b));
  });
  const isochrones = Array.from({ length: counts.isochrones }, (): BenchRequest => {
    const [x, y] = isochroneOrigin(arrays, random);
    return { method: 'GET', path: `/isochrone?lon=${x.toFixed(6)}&lat=${y.toFixed(6)}&minutes=${ISOCHRONE_MINUTES}&mode=auto` };
  });
  const matrices = Array.from({ length: counts.matrices }, (): BenchRequest => {
    const centre = node(random.int(n));
    const points: Point[] = [];
    while (points.length < 20) {
      const p = node(nearestNode(offset(random, centre, MATRIX_RADIUS_KM * 1000 * Math.sqrt(random()))));
      if (metres(centre, p) <= MATRIX_RADIUS_KM * 1000) points.push(near(p));
    }
    const round = (p: Point) => [Number(p[0].toFixed(6)), Number(p[1].toFixed(6))];
    return { method: 'POST', path: '/matrix', body: JSON.stringify({ origins: points.slice(0, 10).map(round), destinations: points.slice(10).map(round), mode: 'auto' }) };
  });
  return {
    shortRoutes, longRoutes, isochrones, matrices,
    shortMeanMetres: shortSum / Math.max(1, counts.routes), longMeanMetres: longSum / Math.max(1, counts.routes),
  };
}
