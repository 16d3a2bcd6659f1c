/** planJourneys: the Pareto set over (arrival, transfers) from a point to a point at a departure instant. */
import type { TransitData } from '../data.ts';
import { reconstruct, type Journey, type JourneyPlace } from './journey.ts';
import type { RoadNetwork } from '../../routing/release.ts';
import { runRaptor } from './raptor.ts';
import { streetWalks, type Walk } from './street-walks.ts';
import type { WalkTo } from './walk-model.ts';
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
 * roads of `roads` when given, else straight lines (walking.ts); the first journey's street
 * walks then carry their line. Empty when nothing arrives or the release has no such feed.
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
  kept.sort((a, b) => a.arrival - b.arrival || a.transfers - b.transfers);
  // The first journey's street walks carry their lines for its geometry (the others have none).
  if (roads && kept[0]) addStreetLines(data, kept[0], roads, access, egress, direct);
  return kept;
}

/**
 * Access, egress and the direct walk take the line of the search that measured them (egress read
 * backwards: it was measured from the destination); a footpath gets its own street search, no
 * longer than the footpath takes.
 */
function addStreetLines(data: TransitData, journey: Journey, roads: RoadNetwork, access: WalkTo[], egress: WalkTo[], direct: Walk | null): void {
  const stopOf = (place: JourneyPlace) => (place.id === undefined ? -1 : data.stopIndex.get(place.id) ?? -1);
  for (const leg of journey.legs) {
    if (leg.mode !== 'walk') continue;
    const from = stopOf(leg.from);
    const to = stopOf(leg.to);
    let line: [number, number][] | null | undefined;
    if (from < 0 && to < 0) line = direct?.line?.();
    else if (from < 0) line = access.find((a) => a.stop === to)?.line?.();
    else if (to < 0) line = egress.find((e) => e.stop === from)?.line?.().reverse();
    else if ([leg.from.lng, leg.from.lat, leg.to.lng, leg.to.lat].every(Number.isFinite)) line = streetWalks(roads).line([leg.from.lng, leg.from.lat], [leg.to.lng, leg.to.lat], leg.arrival - leg.departure);
    if (line) leg.line = line;
  }
}
