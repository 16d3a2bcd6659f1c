import type { TravelMatrix } from './problem.ts';
import type { PlaceSet } from './places.ts';
import type { OwnMatrix } from './request-model.ts';

/** Seconds standing for "no way": longer than any horizon, so no feasible route takes it. */
export const UNREACHABLE_SECONDS = 1e9;

/**
 * Own matrices (volume 3 travel source 3) as the solver's square matrix over places: from place i
 * to place j is the cell of i's source row and j's destination column. A vehicle start has no
 * column and a vehicle end no row, so nothing travels to the one or from the other.
 */
export function ownTravel(places: PlaceSet, own: OwnMatrix): TravelMatrix {
  const cells = places.cells!;
  const size = places.size;
  const durations = new Float64Array(size * size).fill(UNREACHABLE_SECONDS);
  const distances = new Float64Array(size * size);
  for (let i = 0; i < size; i++) {
    const src = cells[i]!.src;
    for (let j = 0; j < size; j++) {
      const dst = cells[j]!.dst;
      if (src === null || dst === null) continue;
      durations[i * size + j] = own.durations[src]![dst]!;
      distances[i * size + j] = own.meters[src]?.[dst] ?? 0;
    }
  }
  return { size, durations, distances };
}
