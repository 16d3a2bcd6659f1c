/**
 * Long lines between towns (roads, railways): a gently curving chain of nodes from one point to
 * another, and the split of a long chain into OSM-sized ways that share their end nodes.
 */
import type { Random } from '../../../lib/seeded-random.ts';
import type { Emitter, Tags } from './emitter.ts';
import { metresPerDegreeLng } from './region.ts';
import { METRES_PER_DEGREE } from '../../../lib/geo/haversine.ts';

export interface Point {
  lng: number;
  lat: number;
}

/**
 * Points strictly between `a` and `b`, about `spacing` metres apart, bowed sideways by a smooth
 * arc plus a little noise, shifted `side` metres to the right of a→b (a carriageway).
 */
export function between(random: Random, a: Point, b: Point, spacing: number, side = 0, bow = random() - 0.5): Point[] {
  const mx = metresPerDegreeLng((a.lat + b.lat) / 2);
  const dx = (b.lng - a.lng) * mx;
  const dy = (b.lat - a.lat) * METRES_PER_DEGREE;
  const length = Math.hypot(dx, dy);
  const n = Math.max(3, Math.round(length / spacing));
  const [px, py] = [dy / length, -dx / length];
  const amplitude = bow * Math.min(3000, 0.12 * length);
  const out: Point[] = [];
  for (let k = 1; k < n; k++) {
    const s = k / n;
    const off = amplitude * Math.sin(Math.PI * s) + (random() - 0.5) * 8 + side;
    out.push({ lng: a.lng + (s * dx + off * px) / mx, lat: a.lat + (s * dy + off * py) / METRES_PER_DEGREE });
  }
  return out;
}

/** Emits the chain `refs` as ways of at most `perWay` nodes, consecutive ways sharing an end node. */
export function chainWays(e: Emitter, refs: readonly number[], tags: Tags, perWay = 120): void {
  for (let start = 0; start < refs.length - 1; start += perWay - 1) {
    e.way(refs.slice(start, Math.min(refs.length, start + perWay)), tags);
  }
}

export const emitPoints = (e: Emitter, points: readonly Point[]): number[] => points.map((p) => e.node(p.lng, p.lat));
