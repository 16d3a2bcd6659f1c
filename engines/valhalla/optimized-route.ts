/**
 * POST /optimized-route through Valhalla. A trip from the first stop to the last is Valhalla's
 * own /optimized_route (it keeps both ends and orders the rest; the visiting order is each trip
 * location's original_index). Any other ends: the stops' matrix from /sources_to_targets, the
 * order from the solver passed in (`orderStops`, the built-in one), then one /route through the
 * stops in that order for the legs. A round trip (end=first) comes back to the first stop of the
 * order even when the solver's order does not repeat it.
 */
import type { Mode } from '../routing/modes.ts';
import type { RouteWarning } from '../../schemas/routing-api.ts';
import type { ValhallaClient } from './call.ts';
import { costingOf, location, type ValhallaOptions } from './costing.ts';
import { malformed, ValhallaFailure } from './failure.ts';
import { lineString, type LineString } from './geojson.ts';
import { valhallaMatrix } from './matrix.ts';
import { joinTripLines, movedBy, positionAt, TRIP_REQUEST, tripLegs, tripOrder, type TripLeg } from './trip.ts';

export interface OptimizedRouteInput {
  stops: { lng: number; lat: number }[];
  start: 'first' | 'any';
  end: 'last' | 'first' | 'any';
  mode: Mode;
  /** The checked options; their `costs` apply, `mode` above wins. */
  options: ValhallaOptions;
}

/** The solver: the visiting order of the stops (indexes) for a matrix of seconds, and its cost. */
export type OrderStops = (durations: number[][], ends: { start: OptimizedRouteInput['start']; end: OptimizedRouteInput['end'] }) => { order: number[]; cost: number };

export interface OptimizedLeg {
  from: number;
  to: number;
  distanceMeters: number;
  durationSeconds: number;
  geometry: LineString;
}

export interface ValhallaOptimizedAnswer {
  order: number[];
  distanceMeters: number;
  durationSeconds: number;
  geometry: LineString;
  legs: OptimizedLeg[];
  warnings?: RouteWarning[];
}

type Stop = OptimizedRouteInput['stops'][number];

function tripRequest(stops: readonly Stop[], visit: readonly number[], input: OptimizedRouteInput) {
  return {
    locations: visit.map((i) => location([stops[i]!.lng, stops[i]!.lat])),
    ...costingOf({ mode: input.mode, costs: input.options.costs }),
    ...TRIP_REQUEST,
  };
}

/** The answer for the stops visited in `visit` (stop indexes) over the trip's `legs`. */
export function optimizedReply(stops: readonly Stop[], order: number[], visit: readonly number[], legs: readonly TripLeg[]): ValhallaOptimizedAnswer {
  if (legs.length !== visit.length - 1) throw malformed('route', `${legs.length} legs for ${visit.length} locations`);
  const warnings: RouteWarning[] = [];
  const warn = (stop: number, reached: [number, number]) => {
    const s = stops[stop]!;
    const metres = movedBy([s.lng, s.lat], reached);
    if (metres !== null && !warnings.some((w) => w.where === `stop ${stop}`)) {
      warnings.push({
        code: 'ENDPOINT_RELOCATED',
        where: `stop ${stop}`,
        message: `the route reaches stop ${stop} ${Math.round(metres)} m from the requested point, at the nearest usable road; treat the stop as unreached`,
      });
    }
  };
  legs.forEach((leg, k) => {
    warn(visit[k]!, positionAt(leg.line, 0));
    if (k === legs.length - 1) warn(visit[k + 1]!, positionAt(leg.line, leg.line.length / 2 - 1));
  });
  return {
    order,
    distanceMeters: Math.round(legs.reduce((s, l) => s + l.metres, 0)),
    durationSeconds: Math.round(legs.reduce((s, l) => s + l.seconds, 0)),
    geometry: lineString(joinTripLines(legs.map((l) => l.line))),
    legs: legs.map((leg, k) => ({
      from: visit[k]!,
      to: visit[k + 1]!,
      distanceMeters: Math.round(leg.metres),
      durationSeconds: Math.round(leg.seconds),
      geometry: lineString(leg.line),
    })),
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}

/** The stops in a good order with the legs between them; throws a ValhallaFailure. */
export async function valhallaOptimizedRoute(client: ValhallaClient, input: OptimizedRouteInput, orderStops: OrderStops): Promise<ValhallaOptimizedAnswer> {
  const { stops } = input;
  if (stops.length < 2) throw new ValhallaFailure('failed', 'optimized route: at least two stops', {});
  if (input.start === 'first' && input.end === 'last') {
    const all = stops.map((_, i) => i);
    const json = await client.call('optimized_route', tripRequest(stops, all, input));
    const order = tripOrder(json);
    if (!order || order.length !== stops.length || new Set(order).size !== stops.length || order.some((i) => i < 0 || i >= stops.length)) {
      throw malformed('optimized_route', 'trip.locations[].original_index is not a permutation of the stops');
    }
    return optimizedReply(stops, order, order, tripLegs('optimized_route', json));
  }
  const points = stops.map((s): [number, number] => [s.lng, s.lat]);
  const matrix = await valhallaMatrix(client, points, points, { mode: input.mode, costs: input.options.costs });
  if (matrix.seconds.some((row) => row.some((v) => v === null))) {
    throw new ValhallaFailure('no_route', 'valhalla sources_to_targets: a pair of stops has no path', { action: 'sources_to_targets' });
  }
  const { order } = orderStops(matrix.seconds as number[][], { start: input.start, end: input.end });
  const visit = input.end === 'first' && order.length > 1 && order.at(-1) !== order[0] ? [...order, order[0]!] : order;
  const json = await client.call('route', tripRequest(stops, visit, input));
  return optimizedReply(stops, order, visit, tripLegs('route', json));
}
