/**
 * The time surface of an isochrone: reached roads sampled along their shapes and written onto a
 * regular grid of arrival times, each sample also reaching the grid points around it at walking
 * pace off the road (so the surface has width, as Valhalla's isochrone grid does).
 */
import { METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';

/** Off-road pace between a road and the grid points beside it: 5 km/h. */
export const OFF_ROAD_METRES_PER_SECOND = 5 / 3.6;
/** Grid points per side at most, and the finest cell. */
const MAX_SIDE = 160;
const MIN_CELL_METRES = 25;

export interface Bounds {
  minLng: number;
  minLat: number;
  maxLng: number;
  maxLat: number;
}

export interface TimeGrid {
  /** Grid point (i, j) lies at (minLng + i·dLng, minLat + j·dLat). */
  minLng: number;
  minLat: number;
  dLng: number;
  dLat: number;
  width: number;
  height: number;
  /** Seconds per grid point, row-major (j·width + i); Infinity where nothing reaches. */
  seconds: Float64Array;
  cellMetres: number;
  /** cos(latitude) of the grid's middle: metres per degree of longitude over those of latitude. */
  cos: number;
}

/** An empty grid over the bounds (a margin of two cells), fine enough for the extent, at most MAX_SIDE points a side. */
export function createTimeGrid(b: Bounds): TimeGrid {
  const cos = Math.max(0.01, Math.cos(((b.minLat + b.maxLat) / 2) * (Math.PI / 180)));
  const extentMetres = Math.max((b.maxLng - b.minLng) * METRES_PER_DEGREE * cos, (b.maxLat - b.minLat) * METRES_PER_DEGREE);
  const cellMetres = Math.max(MIN_CELL_METRES, extentMetres / (MAX_SIDE - 5));
  const dLat = cellMetres / METRES_PER_DEGREE;
  const dLng = dLat / cos;
  const width = Math.ceil((b.maxLng - b.minLng) / dLng) + 5;
  const height = Math.ceil((b.maxLat - b.minLat) / dLat) + 5;
  return {
    minLng: b.minLng - 2 * dLng, minLat: b.minLat - 2 * dLat, dLng, dLat, width, height,
    seconds: new Float64Array(width * height).fill(Infinity), cellMetres, cos,
  };
}

/** A point reached at `seconds`: its time at the grid points around it (3×3), plus the walk there. */
export function stampTime(grid: TimeGrid, lng: number, lat: number, seconds: number): void {
  const cos = grid.cos;
  const x = (lng - grid.minLng) / grid.dLng;
  const y = (lat - grid.minLat) / grid.dLat;
  const ci = Math.round(x);
  const cj = Math.round(y);
  for (let j = cj - 1; j <= cj + 1; j++) {
    if (j < 0 || j >= grid.height) continue;
    for (let i = ci - 1; i <= ci + 1; i++) {
      if (i < 0 || i >= grid.width) continue;
      const dx = (i - x) * grid.dLng * cos * METRES_PER_DEGREE;
      const dy = (j - y) * grid.dLat * METRES_PER_DEGREE;
      const t = seconds + Math.hypot(dx, dy) / OFF_ROAD_METRES_PER_SECOND;
      const k = j * grid.width + i;
      if (t < grid.seconds[k]!) grid.seconds[k] = t;
    }
  }
}
