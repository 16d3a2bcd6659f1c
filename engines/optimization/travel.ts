/**
 * The travel matrices of a request (volume 3 "Optimization", travel sources 1–3) over its
 * places, and which of the solver's matrices each vehicle uses.
 */
import type { TravelMatrix } from './problem.ts';
import type { PlaceSet } from './places.ts';
import type { LatLng, OptimizationRequest } from './request-model.ts';
import { timeSlices, type Slices } from './slices.ts';
import { geodesicRows, sharedMatrix } from './travel-geodesic.ts';
import { emptyOwnMatrix, ownRows } from './travel-own.ts';
import type { RoadTravel } from './travel-road.ts';

export interface Travel {
  matrices: TravelMatrix[];
  /** Vehicle index → index into matrices. */
  matrixOf: (vehicle: number) => number;
  /** Road travel: reachable[i * size + j]; null when every pair is reachable. */
  reachable: Uint8Array | null;
}

const single = (matrix: TravelMatrix, reachable: Uint8Array | null = null): Travel => ({ matrices: [matrix], matrixOf: () => 0, reachable });

/** Fills a matrix row by row, pausing whenever a time slice is used up. */
async function byRows(matrix: TravelMatrix, fill: (from: number, to: number) => void, slices: Slices): Promise<TravelMatrix> {
  for (let row = 0; row < matrix.size; row++) {
    fill(row, row + 1);
    if (slices.due()) await slices.pause();
  }
  return matrix;
}

/**
 * Road travel needs `road` (roadTravel over the enabled network, on a worker thread in the API).
 * Straight lines and own matrices are filled in time slices, so a 1,000-place matrix never holds
 * the event loop.
 */
export async function travelOf(
  request: OptimizationRequest, places: PlaceSet, road: ((places: LatLng[]) => Promise<RoadTravel>) | null, slices = timeSlices(),
): Promise<Travel> {
  const travel = request.travel;
  if (travel.kind === 'geodesic') {
    const latLngs = places.latLngs ?? [];
    const matrix = sharedMatrix(latLngs.length);
    return single(await byRows(matrix, (from, to) => geodesicRows(latLngs, travel.metersPerSecond, matrix, from, to), slices));
  }
  if (travel.kind === 'matrices') {
    const matrices: TravelMatrix[] = [];
    for (const own of travel.matrices) {
      const matrix = emptyOwnMatrix(places.size);
      matrices.push(await byRows(matrix, (from, to) => ownRows(places, own, matrix, from, to), slices));
    }
    return { matrices, matrixOf: (v) => request.vehicles[v]!.matrix ?? 0, reachable: null };
  }
  if (!road) throw new Error('road travel needs the roads release');
  const { matrix, reachable } = await road(places.latLngs ?? []);
  return single(matrix, reachable);
}
