/**
 * Traces for the map-matching tests and benchmark: synthetic GPS fixes sampled along a planned
 * route at its own speed with Gaussian noise (the true directed edge kept per fix), and the
 * GraphHopper GPX traces (../shared/data/osm, Apache-2.0, see SOURCES.md).
 */
import { readFile } from 'node:fs/promises';
import type { CostModel } from '../../../engines/routing/cost-model.ts';
import { planRoute, type PlannedRoute } from '../../../engines/routing/plan-route.ts';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { pointAtFraction, routeLineMicro } from '../../../engines/routing/route-geometry.ts';
import { haversineMetres, METRES_PER_DEGREE } from '../../../lib/geo/haversine.ts';

export interface SyntheticFix {
  lng: number;
  lat: number;
  time: number;
  /** Where the vehicle was, and on which directed edge. */
  truth: LngLat;
  edge: number;
}

/** A standard normal deviate from a uniform source (Box-Muller). */
export function gaussian(random: () => number): number {
  const u = Math.max(random(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

/** Routes between seeded random points of the box, `minMetres` to `maxMetres` long (straight line). */
export function randomRoutes(
  network: RoadNetwork, model: CostModel, random: () => number, count: number,
  box: [number, number, number, number], minMetres: number, maxMetres: number,
): PlannedRoute[] {
  const out: PlannedRoute[] = [];
  const at = (): LngLat => [box[0] + random() * (box[2] - box[0]), box[1] + random() * (box[3] - box[1])];
  for (let tries = 0; out.length < count && tries < count * 50; tries++) {
    const from = at();
    const to = at();
    const gap = haversineMetres(from[0], from[1], to[0], to[1]);
    if (gap < minMetres || gap > maxMetres) continue;
    const route = planRoute(network, model, from, to);
    if (route && route.relocations.length === 0 && route.path.edges.length > 3) out.push(route);
  }
  return out;
}

/** A fix every `interval` seconds along the route at its speed, each moved by Gaussian noise of `noise` metres per axis. */
export function sampleTrace(model: CostModel, route: PlannedRoute, interval: number, noise: number, random: () => number, startTime = 1_700_000_000): SyntheticFix[] {
  const { edges, startFraction, endFraction } = route.path;
  const graph = model.graph;
  // Per edge: the stretch travelled (fractions) and its seconds.
  const stretches = Array.from(edges, (edge, k) => {
    const from = k === 0 ? startFraction : 0;
    const to = k === edges.length - 1 ? endFraction : 1;
    return { edge, from, to, seconds: (to - from) * model.seconds(edge) };
  });
  const total = stretches.reduce((s, x) => s + x.seconds, 0);
  const fixes: SyntheticFix[] = [];
  let k = 0;
  let before = 0;
  for (let t = 0; t <= total + 1e-9; t += interval) {
    while (k < stretches.length - 1 && before + stretches[k]!.seconds < t) before += stretches[k++]!.seconds;
    const s = stretches[k]!;
    const within = s.seconds > 0 ? Math.min(1, (t - before) / s.seconds) : 0;
    const truth = pointAtFraction(graph, s.edge, s.from + within * (s.to - s.from));
    const cos = Math.cos((truth[1] * Math.PI) / 180);
    fixes.push({
      lng: truth[0] + (noise * gaussian(random)) / (METRES_PER_DEGREE * cos),
      lat: truth[1] + (noise * gaussian(random)) / METRES_PER_DEGREE,
      time: startTime + t,
      truth,
      edge: s.edge,
    });
  }
  return fixes;
}

export interface GpxPoint {
  lng: number;
  lat: number;
  /** ISO 8601, when the file has it. */
  time?: string;
}

/** The track points (trkpt) or route points (rtept) of a GPX file, in order. */
export async function readGpx(file: string): Promise<GpxPoint[]> {
  const xml = await readFile(file, 'utf8');
  const out: GpxPoint[] = [];
  for (const m of xml.matchAll(/<(trkpt|rtept)\b([^>]*)>([\s\S]*?)<\/\1>/g)) {
    const lat = Number(/lat="([^"]+)"/.exec(m[2]!)?.[1]);
    const lng = Number(/lon="([^"]+)"/.exec(m[2]!)?.[1]);
    const time = /<time>([^<]+)<\/time>/.exec(m[3]!)?.[1];
    out.push(time ? { lng, lat, time } : { lng, lat });
  }
  return out;
}

/**
 * The directed edge of the route nearest to a fix (local plane): what a matcher that knew the
 * true path would report, so the bound on the share of fixes any projection puts on the true edge.
 */
export function nearestRouteEdge(model: CostModel, route: PlannedRoute, fix: { lng: number; lat: number }): { edge: number; lng: number; lat: number } {
  const { edges, startFraction, endFraction } = route.path;
  const cos = Math.cos((fix.lat * Math.PI) / 180);
  let best = { edge: -1, lng: 0, lat: 0 };
  let bestD2 = Infinity;
  edges.forEach((edge, k) => {
    const line = routeLineMicro(model.graph, { edges: Uint32Array.of(edge), startFraction: k === 0 ? startFraction : 0, endFraction: k === edges.length - 1 ? endFraction : 1, cost: 0, seconds: 0, metres: 0 });
    for (let p = 0; p + 3 < line.length; p += 2) {
      const x0 = (line[p]! / 1e6 - fix.lng) * cos;
      const y0 = line[p + 1]! / 1e6 - fix.lat;
      const dx = (line[p + 2]! / 1e6 - fix.lng) * cos - x0;
      const dy = line[p + 3]! / 1e6 - fix.lat - y0;
      const l2 = dx * dx + dy * dy;
      const t = l2 > 0 ? Math.min(1, Math.max(0, -(x0 * dx + y0 * dy) / l2)) : 0;
      const d2 = (x0 + t * dx) ** 2 + (y0 + t * dy) ** 2;
      if (d2 < bestD2) {
        bestD2 = d2;
        best = { edge, lng: fix.lng + (x0 + t * dx) / cos, lat: fix.lat + y0 + t * dy };
      }
    }
  });
  return best;
}
