import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { Dem } from './dem.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';


export interface ProfilePoint {
  at: LngLat;
  /** Metres along the path from its first point (great-circle legs). */
  distance: number;
  /** Metres; null where the DEM has no height. */
  elevation: number | null;
}

export interface Profile {
  points: ProfilePoint[];
  /** Metres: the whole path. */
  length: number;
  /** Over the points with a height; null when none has one. */
  min: number | null;
  max: number | null;
  /** Sums of the rises and falls between consecutive points that both have a height. */
  ascent: number;
  descent: number;
}

/**
 * Heights along a path: at its own vertices, or at `samples` points evenly spaced by distance
 * (both ends included). A sample between two vertices is placed on the straight lng/lat line at
 * its share of that leg's great-circle length, fine for the short legs of a profile.
 */
export function elevationProfile(dem: Dem, path: readonly LngLat[], samples?: number): Profile {
  if (path.length < 1) throw new RangeError('a profile needs at least one point');
  const legs = path.slice(1).map((to, i) => haversineMetres(path[i]![0], path[i]![1], to[0], to[1]));
  const length = legs.reduce((a, b) => a + b, 0);
  const placed = samples === undefined ? vertices(path, legs) : spaced(path, legs, length, samples);
  const points = placed.map(({ at, distance }) => ({ at, distance, elevation: dem.elevationAt(at[0], at[1]) }));
  let min: number | null = null;
  let max: number | null = null;
  let ascent = 0;
  let descent = 0;
  points.forEach(({ elevation }, i) => {
    if (elevation === null) return;
    min = min === null ? elevation : Math.min(min, elevation);
    max = max === null ? elevation : Math.max(max, elevation);
    const before = i > 0 ? points[i - 1]!.elevation : null;
    if (before === null) return;
    if (elevation > before) ascent += elevation - before;
    else descent += before - elevation;
  });
  return { points, length, min, max, ascent, descent };
}

function vertices(path: readonly LngLat[], legs: readonly number[]): { at: LngLat; distance: number }[] {
  let distance = 0;
  return path.map((at, i) => {
    if (i > 0) distance += legs[i - 1]!;
    return { at: [at[0], at[1]], distance };
  });
}

function spaced(path: readonly LngLat[], legs: readonly number[], length: number, samples: number): { at: LngLat; distance: number }[] {
  if (!Number.isInteger(samples) || samples < 2) throw new RangeError(`samples must be an integer of at least 2 (got ${samples})`);
  const out: { at: LngLat; distance: number }[] = [];
  let leg = 0;
  let legStart = 0;
  for (let i = 0; i < samples; i++) {
    const distance = i === samples - 1 ? length : (length * i) / (samples - 1);
    while (leg < legs.length - 1 && legStart + legs[leg]! < distance) legStart += legs[leg++]!;
    const from = path[leg]!;
    const to = path[Math.min(leg + 1, path.length - 1)]!;
    const share = legs[leg] ? Math.min(1, Math.max(0, (distance - legStart) / legs[leg]!)) : 0;
    const at: LngLat = i === samples - 1 ? [path.at(-1)![0], path.at(-1)![1]] : [from[0] + (to[0] - from[0]) * share, from[1] + (to[1] - from[1]) * share];
    out.push({ at, distance });
  }
  return out;
}
