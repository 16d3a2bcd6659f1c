/** Journeys as the router returns them (epoch seconds), and their reconstruction from RAPTOR rounds. */
import type { TransitData } from '../data.ts';
import type { TransitNetwork } from './network.ts';
import { BoardKind, type RaptorResult, type RaptorTarget } from './raptor.ts';
import { stopPoint } from './walk-model.ts';

export interface JourneyStop {
  id: string;
  name: string | null;
  lng: number | null;
  lat: number | null;
}

/** A walk's end: a stop, or the request's origin or destination (no id). */
export interface JourneyPlace {
  id?: string;
  name?: string | null;
  lng: number;
  lat: number;
}

export interface WalkLeg {
  mode: 'walk';
  from: JourneyPlace;
  to: JourneyPlace;
  departure: number;
  arrival: number;
  distanceMeters: number;
  /** [lng, lat] from `from` to `to` along the streets, for the geometry; absent for a straight walk. */
  line?: [number, number][];
}

export interface RideLeg {
  mode: 'ride';
  route: { id: string; shortName?: string; longName?: string };
  trip: { id: string };
  headsign: string;
  from: JourneyStop;
  to: JourneyStop;
  departure: number;
  arrival: number;
  intermediateStops: { stop: JourneyStop; arrival: number; departure: number }[];
}

export type Leg = WalkLeg | RideLeg;

export interface Journey {
  departure: number;
  arrival: number;
  transfers: number;
  legs: Leg[];
}

export function journeyStop(data: TransitData, stop: number): JourneyStop {
  const s = data.stops[stop]!;
  return { id: s.id, name: s.name, lng: s.lon, lat: s.lat };
}

function stopPlace(data: TransitData, stop: number): JourneyPlace {
  const s = data.stops[stop]!;
  const [lng, lat] = stopPoint(data, stop) ?? [NaN, NaN];
  return { id: s.id, name: s.name, lng, lat };
}

const roundMetres = (m: number) => Math.round(m * 10) / 10;

/** The legs of a RAPTOR target, walking back through the rounds. */
export function reconstruct(
  data: TransitData, network: TransitNetwork, result: RaptorResult, target: RaptorTarget,
  from: readonly [number, number], to: readonly [number, number],
): Journey {
  /** A network stop as a walk's end. */
  const place = (stop: number) => stopPlace(data, network.stops[stop]!);
  const legs: Leg[] = [];
  const egressStop = target.egressStop;
  const egressFrom = target.arrival - target.egress.seconds;
  if (target.egress.seconds > 0) {
    legs.push({
      mode: 'walk', from: place(egressStop), to: { lng: to[0], lat: to[1] },
      departure: egressFrom, arrival: target.arrival, distanceMeters: roundMetres(target.egress.metres),
    });
  }
  let k = target.rides;
  let stop = egressStop;
  if (target.walk) {
    const { from: fromStop, metres, arrival } = target.walk;
    legs.push({
      mode: 'walk', from: place(fromStop), to: place(stop),
      departure: result.rounds[k]!.rideArrival[fromStop]!, arrival, distanceMeters: roundMetres(metres),
    });
    stop = fromStop;
  }
  for (;;) {
    // stop was reached by a ride of round k.
    const round = result.rounds[k]!;
    const pattern = network.patterns[round.ridePattern[stop]!]!;
    const trip = round.rideTrip[stop]!;
    const day = result.days[round.rideDay[stop]!]!;
    const boardPos = round.rideBoardPos[stop]!;
    const alightPos = round.rideAlightPos[stop]!;
    legs.push(rideLeg(data, network, pattern, trip, day.base, boardPos, alightPos));
    let boardStop = pattern.stops[boardPos]!;
    let r = k - 1;
    while (result.rounds[r]!.boardKind[boardStop] === BoardKind.Carried) r--;
    const label = result.rounds[r]!;
    const kind = label.boardKind[boardStop];
    if (kind === BoardKind.Access) {
      const ride = legs[legs.length - 1] as RideLeg;
      const walkSecs = accessSeconds(result, boardStop);
      if (walkSecs > 0) {
        legs.push({
          mode: 'walk', from: { lng: from[0], lat: from[1] }, to: place(boardStop),
          departure: ride.departure - walkSecs, arrival: ride.departure, distanceMeters: roundMetres(label.boardWalk[boardStop]!),
        });
      }
      break;
    }
    if (kind === BoardKind.Walk) {
      const fromStop = label.boardFrom[boardStop]!;
      const departure = label.rideArrival[fromStop]!;
      legs.push({
        mode: 'walk', from: place(fromStop), to: place(boardStop),
        departure, arrival: label.boardArrival[boardStop]!, distanceMeters: roundMetres(label.boardWalk[boardStop]!),
      });
      boardStop = fromStop;
    }
    // BoardKind.Ride, or the ride before the walk: a ride of round r.
    k = r;
    stop = boardStop;
  }
  legs.reverse();
  const rides = legs.filter((l) => l.mode === 'ride').length;
  return { departure: legs[0]!.departure, arrival: target.arrival, transfers: Math.max(0, rides - 1), legs };
}

/** Seconds of the access walk to a stop (round 0's label minus departAt). */
function accessSeconds(result: RaptorResult, stop: number): number {
  return result.rounds[0]!.boardArrival[stop]! - result.departAt;
}

function rideLeg(
  data: TransitData, network: TransitNetwork, pattern: TransitNetwork['patterns'][number], t: number, base: number, boardPos: number, alightPos: number,
): RideLeg {
  const width = pattern.stops.length;
  const callStop = (i: number) => journeyStop(data, network.stops[pattern.stops[i]!]!);
  // The stop_headsign where one boards, else the trip's headsign.
  const stopHeadsign = pattern.headsigns?.[t * width + boardPos] ?? -1;
  const tripIndex = pattern.trips[t]!;
  const routeIndex = pattern.route;
  const route = routeIndex >= 0 ? data.routes[routeIndex]! : null;
  const at = (i: number) => ({ arrival: base + pattern.arrivals[t * width + i]!, departure: base + pattern.departures[t * width + i]! });
  const intermediateStops = [];
  for (let i = boardPos + 1; i < alightPos; i++) intermediateStops.push({ stop: callStop(i), ...at(i) });
  return {
    mode: 'ride',
    route: {
      id: route?.id ?? '',
      ...(route?.short_name ? { shortName: route.short_name } : {}),
      ...(route?.long_name ? { longName: route.long_name } : {}),
    },
    trip: { id: data.trips.ids[tripIndex]! },
    headsign: stopHeadsign >= 0 ? data.stopTimes.headsigns[stopHeadsign]! : data.trips.headsign[tripIndex] ?? '',
    from: callStop(boardPos),
    to: callStop(alightPos),
    departure: at(boardPos).departure,
    arrival: at(alightPos).arrival,
    intermediateStops,
  };
}
