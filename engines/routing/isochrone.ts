/**
 * Isochrones: the area reachable from a point within each time band, as GeoJSON polygons. A
 * bounded search gives each reached edge its entry time; the edges are sampled along their
 * shapes into a time grid (isochrone-grid.ts), and each band is the grid's iso-line at that time.
 */
import { contours } from 'd3-contour';
import type { CostModel } from './cost-model.ts';
import { fromMicroDegrees } from './graph-format.ts';
import { createTimeGrid, spreadOffRoad, type IsochroneBounds, type TimeGrid } from './isochrone-grid.ts';
import { isochroneRings, type BandGeometry } from './isochrone-polygons.ts';
import { stampReached } from './isochrone-sampling.ts';
import { locate } from './locate.ts';
import { reachWithin, type Reach } from './reach.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { SnapIndex } from './snap.ts';
import { graphTurnRule } from './turn-rule.ts';

export interface IsochroneBand {
  seconds: number;
  geometry: BandGeometry;
}

/**
 * Polygons per band (in the order given), or null when the point has no road near enough to snap
 * to. Three steps, exported for the benchmark to time apart: search, time grid, contours.
 */
export function isochrone(snap: SnapIndex, model: CostModel, origin: LngLat, bandSeconds: readonly number[]): IsochroneBand[] | null {
  const budget = Math.max(...bandSeconds);
  const reached = isochroneReach(snap, model, origin, budget);
  return reached && isochroneBands(isochroneGrid(model, reached, budget), bandSeconds, budget);
}

/** The search's answer and the snapped origin. */
export interface ReachedArea {
  reach: Reach;
  point: LngLat;
}

/** The bounded search from the snapped origin, or null when there is no road near enough. */
export function isochroneReach(snap: SnapIndex, model: CostModel, origin: LngLat, budget: number): ReachedArea | null {
  const start = locate(snap, model, origin);
  if (!start || start.endpoint.length === 0) return null;
  return { reach: reachWithin(model, start.endpoint, budget, graphTurnRule(model.graph, model.mode)), point: start.point };
}

/** The time grid of the reached roads. */
export function isochroneGrid(model: CostModel, { reach, point }: ReachedArea, budget: number): TimeGrid {
  const grid = createTimeGrid(reachedBounds(model, reach, point));
  stampReached(grid, model, reach, budget);
  spreadOffRoad(grid);
  return grid;
}

/** Each band's contour of the grid. */
export function isochroneBands(grid: TimeGrid, bandSeconds: readonly number[], budget: number): IsochroneBand[] {
  // d3-contour keeps values ≥ a threshold: negate the times so a band is "seconds ≤ band".
  const values = Array.from(grid.seconds, (s) => (s === Infinity ? -2 * budget - 1 : -s));
  const generate = contours().size([grid.width, grid.height]).smooth(true);
  return bandSeconds.map((seconds) => ({ seconds, geometry: isochroneRings(generate.contour(values, -seconds).coordinates, grid) }));
}

/** The box of the far end of every edge entered within the budget, and the origin. */
function reachedBounds(model: CostModel, reach: Reach, origin: LngLat): IsochroneBounds {
  const a = model.graph.arrays;
  const b: IsochroneBounds = { minLng: origin[0], maxLng: origin[0], minLat: origin[1], maxLat: origin[1] };
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
