/** Journeys as GET /route?mode=transit answers them: ISO instants, distances, the LineString. */
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import type { TransitAlternative, TransitLeg, TransitRouteResponse } from '../../../schemas/transit-route-api.ts';
import { isoInstant } from '../departures.ts';
import type { Journey, JourneyStop, Leg } from './journey.ts';

const six = (v: number) => Math.round(v * 1e6) / 1e6;

/** The leg's points in order: a walk along its streets or straight from end to end, a ride through every stop. */
function legPoints(leg: Leg): [number, number][] {
  if (leg.mode === 'walk' && leg.line) return leg.line;
  const stops: { lng: number | null; lat: number | null }[] = leg.mode === 'walk'
    ? [leg.from, leg.to]
    : [leg.from, ...leg.intermediateStops.map((s) => s.stop), leg.to];
  return stops.filter((s): s is { lng: number; lat: number } => s.lng !== null && s.lat !== null && Number.isFinite(s.lng) && Number.isFinite(s.lat))
    .map((s) => [s.lng, s.lat]);
}

/** Walks' metres plus rides' great-circle metres between consecutive stops. */
export function journeyMetres(journey: Journey): number {
  let metres = 0;
  for (const leg of journey.legs) {
    if (leg.mode === 'walk') {
      metres += leg.distanceMeters;
      continue;
    }
    const points = legPoints(leg);
    for (let i = 1; i < points.length; i++) metres += haversineMetres(points[i - 1]![0], points[i - 1]![1], points[i]![0], points[i]![1]);
  }
  return metres;
}

export function journeyGeometry(journey: Journey): { type: 'LineString'; coordinates: [number, number][] } {
  const coordinates: [number, number][] = [];
  for (const leg of journey.legs) {
    for (const [lng, lat] of legPoints(leg)) {
      const point: [number, number] = [six(lng), six(lat)];
      const last = coordinates[coordinates.length - 1];
      if (!last || last[0] !== point[0] || last[1] !== point[1]) coordinates.push(point);
    }
  }
  // A LineString needs two positions, even for a walk of no length.
  if (coordinates.length === 1) coordinates.push([...coordinates[0]!]);
  return { type: 'LineString', coordinates };
}

const stopJson = (s: JourneyStop) => ({ id: s.id, name: s.name, lng: s.lng === null ? null : six(s.lng), lat: s.lat === null ? null : six(s.lat) });

function legJson(leg: Leg): TransitLeg {
  if (leg.mode === 'walk') {
    const end = (p: typeof leg.from) => ({ ...(p.id !== undefined ? { id: p.id, name: p.name ?? null } : {}), lng: six(p.lng), lat: six(p.lat) });
    return { mode: 'walk', from: end(leg.from), to: end(leg.to), departure: isoInstant(leg.departure), arrival: isoInstant(leg.arrival), distanceMeters: leg.distanceMeters };
  }
  return {
    mode: 'ride',
    route: leg.route,
    trip: leg.trip,
    headsign: leg.headsign,
    from: stopJson(leg.from),
    to: stopJson(leg.to),
    departure: isoInstant(leg.departure),
    arrival: isoInstant(leg.arrival),
    intermediateStops: leg.intermediateStops.map((s) => ({ stop: stopJson(s.stop), arrival: isoInstant(s.arrival), departure: isoInstant(s.departure) })),
  };
}

function journeyJson(journey: Journey, departAt: number): TransitAlternative {
  return {
    distanceMeters: Math.round(journeyMetres(journey)),
    durationSeconds: Math.round(journey.arrival - departAt),
    departure: isoInstant(journey.departure),
    arrival: isoInstant(journey.arrival),
    transfers: journey.transfers,
    legs: journey.legs.map(legJson),
  };
}

/** The first journey in full, the others of the Pareto set as alternatives (no geometry). */
export function transitRouteJson(journeys: Journey[], departAt: number): TransitRouteResponse {
  const [best, ...others] = journeys;
  if (!best) throw new RangeError('transitRouteJson needs a journey');
  const { distanceMeters, durationSeconds, ...rest } = journeyJson(best, departAt);
  return {
    distanceMeters,
    durationSeconds,
    geometry: journeyGeometry(best),
    schedule_type: 'scheduled',
    ...rest,
    ...(others.length > 0 ? { alternatives: others.map((j) => journeyJson(j, departAt)) } : {}),
  };
}
