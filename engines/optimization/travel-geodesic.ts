import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { TravelMatrix } from './problem.ts';
import type { LatLng } from './request-model.ts';

/**
 * A square matrix on shared memory: handing it to the solver's worker threads copies nothing
 * (a 1,000-place matrix is 16 MB that postMessage would otherwise clone on the event loop).
 */
export function sharedMatrix(size: number): TravelMatrix {
  const cells = size * size;
  const durations = new Float64Array(new SharedArrayBuffer(cells * Float64Array.BYTES_PER_ELEMENT));
  const distances = new Float64Array(new SharedArrayBuffer(cells * Float64Array.BYTES_PER_ELEMENT));
  return { size, durations, distances };
}

/** Rows [from, to) of straight-line travel: great-circle metres at a constant speed. */
export function geodesicRows(places: readonly LatLng[], metresPerSecond: number, matrix: TravelMatrix, from: number, to: number): void {
  const { size, durations, distances } = matrix;
  for (let i = from; i < to; i++) {
    for (let j = 0; j < size; j++) {
      if (i === j) continue;
      const metres = haversineMetres(places[i]!.longitude, places[i]!.latitude, places[j]!.longitude, places[j]!.latitude);
      distances[i * size + j] = metres;
      durations[i * size + j] = metres / metresPerSecond;
    }
  }
}

/** Straight-line travel (volume 3 travel source 2): great-circle metres at a constant speed. */
export function geodesicTravel(places: readonly LatLng[], metresPerSecond: number): TravelMatrix {
  const matrix = sharedMatrix(places.length);
  geodesicRows(places, metresPerSecond, matrix, 0, places.length);
  return matrix;
}
