/**
 * Isochrones: the area reachable from a point within each time band, as GeoJSON polygons. A
 * bounded search gives each reached edge its entry time; the edges are sampled along their
 * shapes into a time grid (isochrone-grid.ts), and each band is the grid's iso-line at that time.
 */
import { contours } from 'd3-contour';
import type { CostModel } from './cost-model.ts';
import { fromMicroDegrees } from './graph-format.ts';
import { createTimeGrid, stampTime, type Bounds, type TimeGrid } from './isochrone-grid.ts';
import { isochroneRings, type BandGeometry } from './isochrone-polygons.ts';
import { locate } from './locate.ts';
import { reachWithin, type Reach } from './reach.ts';
import type { LngLat } from './road-graph.ts';
import { pieceLengths } from './route-geometry.ts';
import type { SnapIndex } from './snap.ts';
import { graphTurnRule } from './turn-rule.ts';

export interface IsochroneBand {
  seconds: number;
  geometry: BandGeometry;
}

/** Polygons per band (in the order given), or null when the point has no road near enough to snap to. */
export function isochrone(snap: SnapIndex, model: CostModel, origin: LngLat, bandSeconds: readonly number[]): IsochroneBand[] | null {
  const start = locate(snap, model, origin);
  if (!start || start.endpoint.length === 0) return null;
  const budget = Math.max(...bandSeconds);
  const reach = reachWithin(model, start.endpoint, budget, graphTurnRule(model.graph, model.mode));
  const grid = createTimeGrid(reachedBounds(model, reach, start.point));
  stampReached(grid, model, reach, budget);
  // d3-contour keeps values ≥ a threshold: negate the times so a band is "seconds ≤ band".
  const values = Array.from(grid.seconds, (s) => (s === Infinity ? -2 * budget - 1 : -s));
  const generate = contours().size([grid.width, grid.height]).smooth(true);
  return bandSeconds.map((seconds) => ({ seconds, geometry: isochroneRings(generate.contour(values, -seconds).coordinates, grid) }));
}

/** The box of the far end of every edge entered within the budget, and the origin. */
function reachedBounds(model: CostModel, reach: Reach, origin: LngLat): Bounds {
  const a = model.graph.arrays;
  const b: Bounds = { minLng: origin[0], maxLng: origin[0], minLat: origin[1], maxLat: origin[1] };
  for (const e of reach.edges) {
    const v = a.edgeTarget[e]!;
    const lng = fromMicroDegrees(a.nodeLng[v]!);
    const lat = fromMicroDegrees(a.nodeLat[v]!);
    if (lng < b.minLng) b.minLng = lng;
    if (lng > b.maxLng) b.maxLng = lng;
    if (lat < b.minLat) b.minLat = lat;
    if (lat > b.maxLat) b.maxLat = lat;
  }
  return b;
}

/** Points along every reached edge, at most half a grid cell apart, stamped with their arrival times. */
function stampReached(grid: TimeGrid, model: CostModel, reach: Reach, budget: number): void {
  const graph = model.graph;
  const spacing = grid.cellMetres / 2;
  const startFraction = new Map(reach.origin.map((p) => [p.edge, p.fraction]));
  reach.edges.forEach((e, i) => {
    const entry = reach.entry[i]!;
    const shape = graph.edgeShapeMicro(e);
    const lengths = pieceLengths(shape);
    const total = lengths.reduce((s, l) => s + l, 0);
    const edgeSeconds = model.seconds(e);
    const from = startFraction.get(e) ?? 0;
    let along = 0;
    for (let p = 0; p < lengths.length; p++) {
      const length = lengths[p]!;
      const steps = Math.max(1, Math.ceil(length / spacing));
      for (let k = 0; k <= steps; k++) {
        const fraction = total > 0 ? (along + (length * k) / steps) / total : 0;
        if (fraction < from) continue;
        const seconds = entry + (fraction - from) * edgeSeconds;
        if (seconds > budget) break;
        const t = k / steps;
        const lng = fromMicroDegrees(shape[2 * p]! + t * (shape[2 * p + 2]! - shape[2 * p]!));
        const lat = fromMicroDegrees(shape[2 * p + 1]! + t * (shape[2 * p + 3]! - shape[2 * p + 1]!));
        stampTime(grid, lng, lat, seconds);
      }
      along += length;
    }
  });
}
