import { Type, type Static } from '@sinclair/typebox';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGE_KEYWORD } from './common.ts';

/** POST /match: map matching of a GPS trace (volume 3 "Routing"; error codes of volume 1). */

export const MATCH_MODES = ['auto', 'car', 'bicycle', 'pedestrian', 'truck'] as const;
/** Fixes per trace (more: too_many_locations). */
export const MAX_MATCH_POINTS = 2000;
/** Sum of the great-circle hops between consecutive fixes (longer: too_many_locations). */
export const MAX_MATCH_TRACE_METRES = 200_000;
/** Body cap: 2,000 fixes with times and accuracies fit several times over. */
export const MATCH_BODY_LIMIT_BYTES = 1024 * 1024;
export const MATCH_SEARCH_RADIUS = { default: 50, min: 1, max: 200 } as const;
export const MATCH_GPS_ACCURACY_DEFAULT = 4.07;
export const MATCH_BREAKAGE_DEFAULT = 2000;

export const MATCH_ERRORS: Readonly<Record<number, string>> = {
  400: 'invalid_location (a malformed point, named by index, or times that decrease), invalid_mode, invalid_route_option, invalid_body '
    + `(not JSON, missing, or over 1 MiB) or too_many_locations (more than ${MAX_MATCH_POINTS} points or a trace longer than ${MAX_MATCH_TRACE_METRES / 1000} km)`,
  422: '`{error: "no route"}` (code no_route): no point could be matched, or no two consecutive points connect',
  502: 'the routing engine failed for another reason (code routing_failed); retry with backoff',
  503: 'no road graph is enabled, or the match ran past the routing time budget (ROUTING_TIME_BUDGET_MS; Retry-After 5)',
};

const POINT_MESSAGE = 'must be [lng, lat] or {lng, lat}';

/**
 * A fix. The shapes are checked loosely here and exactly by the route (api/params/routing/match.ts),
 * so every malformed point answers `points[i] must be [lng, lat] or {lng, lat}` naming its index.
 */
export const MatchPoint = Type.Union([
  Type.Array(Type.Unknown({ description: 'lng, then lat (WGS84 degrees)' }), { minItems: 2, maxItems: 2, description: '[lng, lat]' }),
  Type.Object({
    lng: Type.Unknown({ description: 'Longitude, degrees' }),
    lat: Type.Unknown({ description: 'Latitude, degrees' }),
    time: Type.Optional(Type.Unknown({ description: 'Unix seconds (number) or ISO 8601 string; non-decreasing along the trace' })),
    accuracy: Type.Optional(Type.Unknown({ description: 'Metres (1 sigma); overrides gps_accuracy for this fix' })),
  }, { description: '{lng, lat, time?, accuracy?}' }),
], { [ERROR_MESSAGE_KEYWORD]: POINT_MESSAGE, [ERROR_CODE_KEYWORD]: 'invalid_location' });

const metres = (description: string, min: number, max: number, exclusive = false) => Type.Optional(Type.Number({
  ...(exclusive ? { exclusiveMinimum: min } : { minimum: min }),
  maximum: max,
  description,
  [ERROR_MESSAGE_KEYWORD]: `must be a number ${exclusive ? 'greater than' : 'of at least'} ${min} and at most ${max}`,
  [ERROR_CODE_KEYWORD]: 'invalid_route_option',
}));

export const MatchBody = Type.Object({
  points: Type.Array(MatchPoint, {
    minItems: 2,
    description: `The trace in order: 2 to ${MAX_MATCH_POINTS} fixes, at most ${MAX_MATCH_TRACE_METRES / 1000} km of great-circle hops`,
    [ERROR_MESSAGE_KEYWORD]: `must be an array of 2 to ${MAX_MATCH_POINTS} points, each [lng, lat] or {lng, lat}`,
    [ERROR_CODE_KEYWORD]: 'invalid_location',
  }),
  mode: Type.Optional(Type.String({ description: `${MATCH_MODES.join(', ')} (default auto; car is auto)`, [ERROR_CODE_KEYWORD]: 'invalid_mode' })),
  search_radius: metres(`Metres around each fix where roads are candidates (default ${MATCH_SEARCH_RADIUS.default})`, MATCH_SEARCH_RADIUS.min, MATCH_SEARCH_RADIUS.max),
  gps_accuracy: metres(`Metres, 1 sigma of a fix without its own accuracy (default ${MATCH_GPS_ACCURACY_DEFAULT})`, 0, 1000, true),
  breakage_distance: metres(`Metres: consecutive fixes farther apart, or with no route within this, break the match (default ${MATCH_BREAKAGE_DEFAULT})`, 1, 100_000),
}, { [ERROR_CODE_KEYWORD]: 'invalid_body' });
export type MatchBody = Static<typeof MatchBody>;

const Position = Type.Tuple([Type.Number(), Type.Number()], { description: '[lng, lat], six decimals' });
const LineString = Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) });

export const MatchSegmentJson = Type.Object({
  fromPoint: Type.Integer({ description: 'Index of the segment\'s first matched point' }),
  toPoint: Type.Integer({ description: 'Index of its last matched point' }),
  distanceMeters: Type.Integer(),
  durationSeconds: Type.Integer({ description: 'At the mode\'s free-flow speeds, as /route computes it' }),
  geometry: LineString,
});

export const MatchedPointJson = Type.Union([
  Type.Object({
    index: Type.Integer(),
    matched: Type.Literal(true),
    location: Position,
    edge: Type.Object({
      id: Type.String({ description: 'The directed edge of the enabled roads release (stable within a release only)' }),
      osmWayId: Type.Optional(Type.Number({ description: 'The OSM way, when the release records it' })),
    }),
    distanceMeters: Type.Number({ description: 'From the fix to its matched location, one decimal' }),
    segment: Type.Integer({ description: 'Index in segments' }),
  }),
  Type.Object({ index: Type.Integer(), matched: Type.Literal(false) }),
]);

export const MatchBreakJson = Type.Object({
  afterPoint: Type.Integer({ description: 'Last matched point before the break' }),
  beforePoint: Type.Integer({ description: 'First matched point after it' }),
  reason: Type.Union([Type.Literal('gap'), Type.Literal('unroutable'), Type.Literal('unmatched')], {
    description: 'gap: fixes farther apart than breakage_distance; unroutable: no route within it; unmatched: fixes without a road within search_radius',
  }),
});

export const MatchWarning = Type.Object({
  code: Type.String({ description: 'POINTS_UNMATCHED (stable)' }),
  message: Type.String({ description: 'Human wording; may change' }),
});

export const MatchResponse = Type.Object({
  distanceMeters: Type.Integer({ description: 'Sum over segments' }),
  durationSeconds: Type.Integer({ description: 'Sum over segments' }),
  geometry: Type.Union([
    LineString,
    Type.Object({ type: Type.Literal('MultiLineString'), coordinates: Type.Array(Type.Array(Position)) }, { description: 'One line per segment, when the match has breaks' }),
  ]),
  segments: Type.Array(MatchSegmentJson),
  points: Type.Array(MatchedPointJson, { description: 'One per request point, in order' }),
  breaks: Type.Array(MatchBreakJson),
  warnings: Type.Optional(Type.Array(MatchWarning)),
}, { title: 'Match' });
export type MatchResponse = Static<typeof MatchResponse>;
