/** planJourneys: the Pareto set over (arrival, transfers) from a point to a point at a departure instant. */
import type { TransitData } from '../data.ts';
import { reconstruct, type Journey } from './journey.ts';
import { transitNetwork } from './network.ts';
import { runRaptor } from './raptor.ts';
import { accessStops, egressStops } from './walking.ts';
import { MAX_WALK_METRES, walkMetres, walkSeconds } from './walk-model.ts';
import { haversineMetres } from '../../../lib/geo/haversine.ts';

export interface JourneyRequest {
  from: readonly [number, number];
  to: readonly [number, number];
  /** UTC epoch seconds. */
  departAt: number;
  /** Default 4 (at most 5 rides). */
  maxTransfers?: number;
}

export const DEFAULT_MAX_TRANSFERS = 4;

/**
 * Journeys of the feed `feedId` leaving `from` at or after departAt: each one arrives strictly
 * earlier than every journey with fewer transfers; earliest arrival first. A direct walk (ends
 * within MAX_WALK_METRES) counts as a journey with no transfers. Empty when nothing arrives.
 */
export function planJourneys(data: TransitData, feedId: string, request: JourneyRequest): Journey[] {
  const { from, to, departAt } = request;
  const maxTransfers = request.maxTransfers ?? DEFAULT_MAX_TRANSFERS;
  const candidates: Journey[] = [];
  let walkArrival = Infinity;
  if (haversineMetres(from[0], from[1], to[0], to[1]) <= MAX_WALK_METRES) {
    const metres = walkMetres(from, to);
    walkArrival = departAt + walkSeconds(metres);
    candidates.push({
      departure: departAt, arrival: walkArrival, transfers: 0,
      legs: [{ mode: 'walk', from: { lng: from[0], lat: from[1] }, to: { lng: to[0], lat: to[1] }, departure: departAt, arrival: walkArrival, distanceMeters: Math.round(metres * 10) / 10 }],
    });
  }
  const network = transitNetwork(data, feedId);
  if (network) {
    const access = accessStops(data, feedId, from);
    const egress = egressStops(data, feedId, to);
    if (access.length > 0 && egress.length > 0) {
      const result = runRaptor(data, network, { departAt, access, egress, maxRides: maxTransfers + 1, walkArrival });
      for (const target of result.targets) candidates.push(reconstruct(data, network, result, target, from, to));
    }
  }
  // Candidates come with more rides and strictly earlier arrivals each; a ride journey with no
  // transfer beats the direct walk only by arriving earlier, which RAPTOR already required.
  const kept = candidates.filter((j, i) => !candidates.some((o, m) => m !== i && o.transfers <= j.transfers && o.arrival < j.arrival));
  return kept.sort((a, b) => a.arrival - b.arrival || a.transfers - b.transfers);
}
