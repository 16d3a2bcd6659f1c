import { Type, type Static } from '@sinclair/typebox';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGE_KEYWORD } from './common.ts';
import { ISOCHRONE_MODES, MatrixBody, RouteWarning } from './routing-api.ts';

/** POST /optimized-route: single-vehicle stop ordering (volume 3 "stop ordering", volume 1 codes). */

/** Stops per request (volume 1 too_many_locations above it). */
export const MAX_OPTIMIZED_STOPS = 50;
/** Body cap (volume 1 invalid_body above it): 50 stops and every option fit many times over. */
export const OPTIMIZED_ROUTE_BODY_LIMIT_BYTES = 64 * 1024;
export const START_RULES = ['first', 'any'] as const;
export const END_RULES = ['last', 'first', 'any'] as const;

const STOP_FORMAT = '[lng, lat] or {"lng": n, "lat": n}';
export const STOP_MESSAGE = `must be ${STOP_FORMAT} with lng between -180 and 180 and lat between -90 and 90`;

// mode, avoid, use_highways, use_hills and the truck fields exactly as POST /matrix takes them.
const { origins: _origins, destinations: _destinations, ...matrixOptions } = MatrixBody.properties;

export const OptimizedRouteBody = Type.Object({
  stops: Type.Array(Type.Unknown({ description: STOP_FORMAT }), {
    minItems: 2,
    description: `The stops, 2 to ${MAX_OPTIMIZED_STOPS}, each ${STOP_FORMAT} (WGS84 degrees)`,
    [ERROR_MESSAGE_KEYWORD]: `must be an array of 2 to ${MAX_OPTIMIZED_STOPS} stops, each ${STOP_FORMAT}`,
    [ERROR_CODE_KEYWORD]: 'invalid_location',
  }),
  start: Type.Optional(Type.Union(START_RULES.map((r) => Type.Literal(r)), {
    description: 'first (default): the route starts at stops[0]; any: wherever is best',
    [ERROR_CODE_KEYWORD]: 'invalid_route_option',
  })),
  end: Type.Optional(Type.Union(END_RULES.map((r) => Type.Literal(r)), {
    description: 'last (default): the route ends at the last stop; first: back at stops[0] (a round trip; needs start first); any: wherever is best',
    [ERROR_CODE_KEYWORD]: 'invalid_route_option',
  })),
  ...matrixOptions,
}, { [ERROR_CODE_KEYWORD]: 'invalid_body' });
export type OptimizedRouteBody = Static<typeof OptimizedRouteBody>;

export const OPTIMIZED_ROUTE_MODES = ISOCHRONE_MODES;

const LineString = Type.Object({
  type: Type.Literal('LineString'),
  coordinates: Type.Array(Type.Tuple([Type.Number(), Type.Number()], { description: '[lng, lat], six decimals' })),
});

export const OptimizedRouteLeg = Type.Object({
  from: Type.Integer({ description: 'Index into stops' }),
  to: Type.Integer({ description: 'Index into stops' }),
  distanceMeters: Type.Integer(),
  durationSeconds: Type.Integer(),
  geometry: LineString,
});

export const OptimizedRouteResponse = Type.Object({
  order: Type.Array(Type.Integer(), { description: 'Indices into stops in visiting order; a round trip does not repeat its start' }),
  distanceMeters: Type.Integer({ description: 'The sum of the legs\' distanceMeters' }),
  durationSeconds: Type.Integer({ description: 'The sum of the legs\' durationSeconds' }),
  geometry: LineString,
  legs: Type.Array(OptimizedRouteLeg, { description: 'One per consecutive pair of order (and back to order[0] on a round trip)' }),
  warnings: Type.Optional(Type.Array(RouteWarning, { description: 'ENDPOINT_RELOCATED, where stops[i]: the stop is reached more than 50 m away' })),
}, { title: 'OptimizedRoute' });
export type OptimizedRouteResponse = Static<typeof OptimizedRouteResponse>;
