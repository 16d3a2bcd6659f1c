import type { PlaceSet } from './places.ts';
import type { OptimizationRequest } from './request-model.ts';

/**
 * Road travel (volume 3): the request shipments no vehicle can reach — its pickup cannot reach
 * its delivery, or every vehicle allowed to serve it cannot get from its start to the first
 * visit or from the last visit to its end. `reachable[i * size + j]` is the road matrix's.
 */
export function unreachableShipments(request: OptimizationRequest, places: PlaceSet, reachable: Uint8Array): number[] {
  const size = places.size;
  const can = (from: number | null, to: number | null) => from === null || to === null || reachable[from * size + to] === 1;
  const out: number[] = [];
  request.shipments.forEach((s, i) => {
    if (s.ignore) return;
    const { pickup, delivery } = places.shipments[i]!;
    const first = pickup ?? delivery;
    const last = delivery ?? pickup;
    const vehicles = (s.allowedVehicleIndices ?? request.vehicles.map((_, v) => v)).filter((v) => !request.vehicles[v]!.ignore);
    const served = can(pickup, delivery) && vehicles.some((v) => can(places.vehicleStarts[v]!, first) && can(last, places.vehicleEnds[v]!));
    if (!served) out.push(i);
  });
  return out;
}
