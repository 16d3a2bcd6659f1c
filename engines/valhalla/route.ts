/**
 * GET /route through Valhalla's /route: two locations, our costing, kilometres, no narration;
 * the answer as our route (whole trip, its polyline6 shape decoded to micro-degrees) with the
 * ends Valhalla moved more than 50 m, exactly as engines/routing/plan-route.ts reports them.
 */
import type { Relocation, RouteEnd } from '../routing/plan-route.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { ValhallaClient } from './call.ts';
import { costingOf, location, type ValhallaOptions } from './costing.ts';
import { distinctPositions, joinTripLines, movedBy, positionAt, TRIP_REQUEST, tripLegs } from './trip.ts';

/** The route as the reply code takes it (the shape of PlannedRoute without the built-in search's path). */
export interface ValhallaRoute {
  metres: number;
  seconds: number;
  line: Int32Array;
  relocations: Relocation[];
  relocationChecked: boolean;
}

/** The /route request for a route from `from` to `to`. */
export function routeRequest(from: LngLat, to: LngLat, options: ValhallaOptions) {
  return { locations: [location(from), location(to)], ...costingOf(options), ...TRIP_REQUEST };
}

/** The route of an answer of /route for the points asked. */
export function routeFromTrip(json: unknown, from: LngLat, to: LngLat): ValhallaRoute {
  const legs = tripLegs('route', json);
  const line = joinTripLines(legs.map((l) => l.line));
  const relocationChecked = distinctPositions(line);
  const relocations: Relocation[] = [];
  if (relocationChecked) {
    const ends: [RouteEnd, LngLat, LngLat][] = [['origin', from, positionAt(line, 0)], ['destination', to, positionAt(line, line.length / 2 - 1)]];
    for (const [where, asked, reached] of ends) {
      const metres = movedBy(asked, reached);
      if (metres !== null) relocations.push({ where, metres });
    }
  }
  return {
    metres: legs.reduce((s, l) => s + l.metres, 0),
    seconds: legs.reduce((s, l) => s + l.seconds, 0),
    line,
    relocations,
    relocationChecked,
  };
}

/** The route from `from` to `to`; throws a ValhallaFailure (no_route, failed, unavailable). */
export async function valhallaRoute(client: ValhallaClient, from: LngLat, to: LngLat, options: ValhallaOptions): Promise<ValhallaRoute> {
  return routeFromTrip(await client.call('route', routeRequest(from, to, options)), from, to);
}
