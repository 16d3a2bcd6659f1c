/** planJourneys: the Pareto set over (arrival, transfers) from a point to a point at a departure instant. */
import type { TransitData } from '../data.ts';
import { reconstruct, type Journey } from './journey.ts';
import type { RoadNetwork } from '../../routing/release.ts';
import { runRaptor } from './raptor.ts';
import { transitWalking } from './walking.ts';

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
 * within MAX_WALK_METRES) counts as a journey with no transfers. Walks follow the pedestrian
 * roads of `roads` when given, else straight lines (walking.ts). Empty when nothing arrives or
 * the release has no such feed.
 */
export function planJourneys(data: TransitData, feedId: string, request: JourneyRequest, roads: RoadNetwork | null = null): Journey[] {
  const walking = transitWalking(data, feedId, roads);
  if (!walking) return [];
  const { from, to, departAt } = request;
  const maxTransfers = request.maxTransfers ?? DEFAULT_MAX_TRANSFERS;
  const candidates: Journey[] = [];
  let walkArrival = Infinity;
  const { access, direct } = walking.accessAndDirect(from, to);
  if (direct) {
    walkArrival = departAt + direct.seconds;
    candidates.push({
      departure: departAt, arrival: walkArrival, transfers: 0,
      legs: [{ mode: 'walk', from: { lng: from[0], lat: from[1] }, to: { lng: to[0], lat: to[1] }, departure: departAt, arrival: walkArrival, distanceMeters: Math.round(direct.metres * 10) / 10 }],
    });
  }
  const egress = walking.egressStops(to);
  if (access.length > 0 && egress.length > 0) {
    const { network, paths } = walking;
    const result = runRaptor(data, network, { departAt, paths, access, egress, maxRides: maxTransfers + 1, walkArrival });
    for (const target of result.targets) candidates.push(reconstruct(data, network, result, target, from, to));
  }
  // Candidates come with more rides and strictly earlier arrivals each; a ride journey with no
  // transfer beats the direct walk only by arriving earlier, which RAPTOR already required.
  const kept = candidates.filter((j, i) => !candidates.some((o, m) => m !== i && o.transfers <= j.transfers && o.arrival < j.arrival));
  return kept.sort((a, b) => a.arrival - b.arrival || a.transfers - b.transfers);
}
