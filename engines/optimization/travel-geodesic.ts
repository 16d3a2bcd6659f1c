import { haversineMetres } from '../../lib/geo/haversine.ts';
import type { TravelMatrix } from './problem.ts';
import type { LatLng } from './request-model.ts';

/** Straight-line travel (volume 3 travel source 2): great-circle metres at a constant speed. */
export function geodesicTravel(places: readonly LatLng[], metresPerSecond: number): TravelMatrix {
  const size = places.length;
  const durations = new Float64Array(size * size);
  const distances = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    for (let j = 0; j < size; j++) {
      if (i === j) continue;
      const metres = haversineMetres(places[i]!.longitude, places[i]!.latitude, places[j]!.longitude, places[j]!.latitude);
      distances[i * size + j] = metres;
      durations[i * size + j] = metres / metresPerSecond;
    }
  }
  return { size, durations, distances };
}
