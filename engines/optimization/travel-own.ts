import type { TravelMatrix } from './problem.ts';
import type { PlaceSet } from './places.ts';
import type { OwnMatrix } from './request-model.ts';
import { sharedMatrix } from './travel-geodesic.ts';

/** Seconds standing for "no way": longer than any horizon, so no feasible route takes it. */
export const UNREACHABLE_SECONDS = 1e9;

/** An own-matrix travel matrix with every cell unreachable until ownRows fills it. */
export function emptyOwnMatrix(size: number): TravelMatrix {
  const matrix = sharedMatrix(size);
  matrix.durations.fill(UNREACHABLE_SECONDS);
  return matrix;
}

/**
 * Rows [from, to) of own matrices (volume 3 travel source 3) as the solver's square matrix over
 * places: from place i to place j is the cell of i's source row and j's destination column. A
 * vehicle start has no column and a vehicle end no row, so nothing travels to the one or from the other.
 */
export function ownRows(places: PlaceSet, own: OwnMatrix, matrix: TravelMatrix, from: number, to: number): void {
  const cells = places.cells!;
  const { size, durations, distances } = matrix;
  for (let i = from; i < to; i++) {
    const src = cells[i]!.src;
    if (src === null) continue;
    for (let j = 0; j < size; j++) {
      const dst = cells[j]!.dst;
      if (dst === null) continue;
      durations[i * size + j] = own.durations[src]![dst]!;
      distances[i * size + j] = own.meters[src]?.[dst] ?? 0;
    }
  }
}

export function ownTravel(places: PlaceSet, own: OwnMatrix): TravelMatrix {
  const matrix = emptyOwnMatrix(places.size);
  ownRows(places, own, matrix, 0, places.size);
  return matrix;
}
