/**
 * The travel matrices of a request (volume 3 "Optimization", travel sources 1–3) over its
 * places, and which of the solver's matrices each vehicle uses.
 */
import type { CostModel } from '../routing/cost-model.ts';
import type { RoadNetwork } from '../routing/release.ts';
import type { TravelMatrix } from './problem.ts';
import type { PlaceSet } from './places.ts';
import type { OptimizationRequest } from './request-model.ts';
import { geodesicTravel } from './travel-geodesic.ts';
import { ownTravel } from './travel-own.ts';
import { roadTravel } from './travel-road.ts';

export interface Travel {
  matrices: TravelMatrix[];
  /** Vehicle index → index into matrices. */
  matrixOf: (vehicle: number) => number;
  /** Road travel: reachable[i * size + j]; null when every pair is reachable. */
  reachable: Uint8Array | null;
}

const single = (matrix: TravelMatrix, reachable: Uint8Array | null = null): Travel => ({ matrices: [matrix], matrixOf: () => 0, reachable });

/** Road travel needs `road` (the enabled network and the driving cost model). */
export function travelOf(request: OptimizationRequest, places: PlaceSet, road: { network: Pick<RoadNetwork, 'snap' | 'hierarchy'>; model: CostModel } | null): Travel {
  const travel = request.travel;
  if (travel.kind === 'geodesic') return single(geodesicTravel(places.latLngs ?? [], travel.metersPerSecond));
  if (travel.kind === 'matrices') {
    return { matrices: travel.matrices.map((m) => ownTravel(places, m)), matrixOf: (v) => request.vehicles[v]!.matrix ?? 0, reachable: null };
  }
  if (!road) throw new Error('road travel needs the roads release');
  const { matrix, reachable } = roadTravel(road.network, road.model, places.latLngs ?? []);
  return single(matrix, reachable);
}
