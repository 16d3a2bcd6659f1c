/**
 * The time surface of an isochrone: reached roads sampled along their shapes and written onto a
 * regular grid of arrival times at the nearest grid point, then every grid point reaching its
 * eight neighbours at walking pace off the road (so the surface has width, as Valhalla's grid does).
 */
import { METRES_PER_DEGREE } from '../../lib/geo/haversine.ts';

/** Off-road pace between a road and the grid points beside it: 5 km/h. */
export const OFF_ROAD_METRES_PER_SECOND = 5 / 3.6;
/** Grid points per side at most, and the finest cell. */
const MAX_SIDE = 160;
const MIN_CELL_METRES = 25;

export interface IsochroneBounds {
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
}

/** An empty grid over the bounds (a margin of two cells), fine enough for the extent, at most MAX_SIDE points a side. */
export function createTimeGrid(b: IsochroneBounds): TimeGrid {
  const cos = Math.max(0.01, Math.cos(((b.minLat + b.maxLat) / 2) * (Math.PI / 180)));
  const extentMetres = Math.max((b.maxLng - b.minLng) * METRES_PER_DEGREE * cos, (b.maxLat - b.minLat) * METRES_PER_DEGREE);
  const cellMetres = Math.max(MIN_CELL_METRES, extentMetres / (MAX_SIDE - 5));
  const dLat = cellMetres / METRES_PER_DEGREE;
  const dLng = dLat / cos;
  const width = Math.ceil((b.maxLng - b.minLng) / dLng) + 5;
  const height = Math.ceil((b.maxLat - b.minLat) / dLat) + 5;
  return {
    minLng: b.minLng - 2 * dLng, minLat: b.minLat - 2 * dLat, dLng, dLat, width, height,
    seconds: new Float64Array(width * height).fill(Infinity), cellMetres,
  };
}

/** A point reached at `seconds`: its time at the nearest grid point, plus the walk there. */
export function stampTime(grid: TimeGrid, lng: number, lat: number, seconds: number): void {
  const x = (lng - grid.minLng) / grid.dLng;
  const y = (lat - grid.minLat) / grid.dLat;
  const i = Math.round(x);
  const j = Math.round(y);
  if (i < 0 || i >= grid.width || j < 0 || j >= grid.height) return;
  const k = j * grid.width + i;
  // The walk only adds time: most stamps (roads are stamped in order of arrival) stop here.
  if (seconds >= grid.seconds[k]!) return;
  const t = seconds + (Math.hypot(i - x, j - y) * grid.cellMetres) / OFF_ROAD_METRES_PER_SECOND;
  if (t < grid.seconds[k]!) grid.seconds[k] = t;
}

/** Each grid point also reached from its eight neighbours at walking pace (one step off the road). */
export function spreadOffRoad(grid: TimeGrid): void {
  const { width, height } = grid;
  const from = Float64Array.from(grid.seconds);
  const straight = grid.cellMetres / OFF_ROAD_METRES_PER_SECOND;
  const diagonal = straight * Math.SQRT2;
  for (let j = 0; j < height; j++) {
    for (let i = 0; i < width; i++) {
      const t = from[j * width + i]!;
      if (t === Infinity) continue;
      for (let dj = -1; dj <= 1; dj++) {
        const y = j + dj;
        if (y < 0 || y >= height) continue;
        for (let di = -1; di <= 1; di++) {
          const x = i + di;
          if (x < 0 || x >= width) continue;
          const k = y * width + x;
          const walked = t + (di !== 0 && dj !== 0 ? diagonal : di !== 0 || dj !== 0 ? straight : 0);
          if (walked < grid.seconds[k]!) grid.seconds[k] = walked;
        }
      }
    }
  }
}
