import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { ERROR_CODE_KEYWORD, ERROR_MESSAGE_KEYWORD } from './common.ts';

/** GET /route, GET /isochrone, POST /matrix (volume 3 "Routing", volume 1 error codes). */

export const ROUTE_MODES = ['auto', 'car', 'bicycle', 'pedestrian', 'truck', 'transit'] as const;
export type RouteMode = (typeof ROUTE_MODES)[number];
export const ISOCHRONE_MODES = ['auto', 'car', 'bicycle', 'pedestrian', 'truck'] as const;
export const AVOIDABLE = ['tolls', 'highways', 'ferries'] as const;
export type Avoidable = (typeof AVOIDABLE)[number];

/** Volume 3 "Isochrone": at most four bands, each 120 minutes or less. */
export const MAX_ISOCHRONE_BANDS = 4;
export const MAX_ISOCHRONE_MINUTES = 120;
/** POST /matrix: origins and destinations each (volume 3). */
export const MAX_MATRIX_LOCATIONS = 10;
/** POST /matrix body cap: ten by ten pairs and options fit many times over. */
export const MATRIX_BODY_LIMIT_BYTES = 64 * 1024;

export const ROUTING_ERRORS: Readonly<Record<number, string>> = {
  400: 'invalid_location, invalid_mode, invalid_route_option, invalid_body or too_many_locations; error names the parameter at fault',
  404: 'POST /matrix only: the deployment has not turned the matrix on (plain-text `Not Found`, as for any unserved path)',
  422: '`{error: "no route"}` (code no_route): the road graph holds no answer for the points',
  502: 'the routing engine failed for another reason (code routing_failed); retry with backoff',
  503: 'no road graph is enabled, or the request ran past the routing time budget (ROUTING_TIME_BUDGET_MS; Retry-After 5) (mode=transit: no transit release is enabled, or it lacks the routable feed)',
};

/** A query parameter given at most once, answered with `code` when malformed. */
const text = (description: string, code: string, maxLength = 100) =>
  Type.Optional(Type.String({ description, maxLength, [ERROR_MESSAGE_KEYWORD]: `must be given once, at most ${maxLength} characters`, [ERROR_CODE_KEYWORD]: code }));
const option = <T extends TSchema>(schema: T) => Type.Optional(schema);
const unit = (name: string, description: string) =>
  option(Type.Number({ minimum: 0, maximum: 1, description, [ERROR_CODE_KEYWORD]: 'invalid_route_option', title: name }));
const dimension = (description: string, max: number) =>
  option(Type.Number({ exclusiveMinimum: 0, maximum: max, description, [ERROR_MESSAGE_KEYWORD]: `must be a number greater than 0 and at most ${max}`, [ERROR_CODE_KEYWORD]: 'invalid_route_option' }));

/** Preferences and the truck profile, shared by /route and /isochrone (volume 3 "Routing"). */
const preferenceParameters = {
  avoid: text('Comma list of tolls, highways, ferries: preferences, not exclusions (tolls and highways on driving modes only; ferries on every road mode)', 'invalid_route_option'),
  use_highways: unit('use_highways', '0 to 1, driving modes (auto, car, truck) only; engine default 0.5; not together with avoid=highways'),
  use_hills: unit('use_hills', '0 to 1, bicycle and pedestrian only; engine defaults 0.25 (bicycle) and 0.5 (pedestrian)'),
  height: dimension('Truck height, metres (default 4.11); mode=truck only', 10),
  width: dimension('Truck width, metres (default 2.6); mode=truck only', 6),
  length: dimension('Truck length, metres (default 21.64); mode=truck only', 50),
  weight: dimension('Gross weight, tonnes (default 21.77); mode=truck only', 100),
  axle_load: option(Type.Number({ minimum: 0, maximum: 40, description: 'Tonnes per axle, 0 to 40 (default 9.07); mode=truck only', [ERROR_CODE_KEYWORD]: 'invalid_route_option' })),
  axle_count: option(Type.Integer({ minimum: 2, maximum: 20, description: 'Whole number 2 to 20 (default 5); mode=truck only', [ERROR_CODE_KEYWORD]: 'invalid_route_option' })),
  hazmat: option(Type.Boolean({ description: 'true avoids roads that prohibit hazardous goods (default false); mode=truck only', [ERROR_CODE_KEYWORD]: 'invalid_route_option' })),
  use_truck_route: unit('use_truck_route', '0 to 1: preference for designated truck routes (default 0); mode=truck only'),
};

/** GET /route's geometry_format values: geojson (default, volume 3's LineString) or polyline6 (the same positions as an encoded polyline). */
export const ROUTE_GEOMETRY_FORMATS = ['geojson', 'polyline6'] as const;
export type RouteGeometryFormat = (typeof ROUTE_GEOMETRY_FORMATS)[number];

export const RouteQuery = Type.Object({
  from: text('Origin lng,lat (WGS84 degrees), exactly two numbers', 'invalid_location'),
  to: text('Destination lng,lat (WGS84 degrees), exactly two numbers', 'invalid_location'),
  mode: text(`${ROUTE_MODES.join(', ')} (default auto; car is auto)`, 'invalid_mode'),
  depart_at: text('ISO 8601; mode=transit only, where it is required (an instant with Z or an offset, else the feed\'s local time)', 'invalid_route_option'),
  geometry_format: option(Type.Union(ROUTE_GEOMETRY_FORMATS.map((f) => Type.Literal(f)), {
    description: 'geojson (default): geometry is a GeoJSON LineString. polyline6: geometry is the same positions (not simplified) as an encoded '
      + 'polyline string at precision 6 (latitude first, as the encoded polyline format orders them), about a quarter of the bytes; road modes only',
    [ERROR_CODE_KEYWORD]: 'invalid_route_option',
  })),
  ...preferenceParameters,
});
export type RouteQuery = Static<typeof RouteQuery>;
export type PreferenceQuery = Omit<RouteQuery, 'from' | 'to' | 'mode' | 'depart_at' | 'geometry_format'>;

const Position = Type.Tuple([Type.Number(), Type.Number()], { description: '[lng, lat], six decimals' });

export const RouteWarning = Type.Object({
  code: Type.String({ description: 'ENDPOINT_RELOCATED, ENDPOINT_RELOCATION_NOT_CHECKED, CLOSURE_IN_FORCE_NEAR_ROUTE or CLOSURE_SCHEDULED_NEAR_ROUTE (stable)' }),
  where: Type.String({ description: 'origin or destination for ENDPOINT_RELOCATED, route for ENDPOINT_RELOCATION_NOT_CHECKED, the closed road for closures' }),
  message: Type.String({ description: 'Human wording; may change' }),
  effectiveFrom: Type.Optional(Type.String({ description: 'CLOSURE_SCHEDULED_NEAR_ROUTE: when the closure starts (ISO 8601 UTC)' })),
});
export type RouteWarning = Static<typeof RouteWarning>;

export const TruckValidation = Type.Object({
  compliant: Type.Boolean({ description: 'Every edge of the route admits the vehicle (dimensions, weights, hazmat)' }),
  endpointsReached: Type.Boolean({ description: 'false when an end was relocated (see findings)' }),
  findings: Type.Array(RouteWarning, { description: 'The relocation findings of warnings, repeated' }),
});

export const RouteResponse = Type.Object({
  distanceMeters: Type.Integer(),
  durationSeconds: Type.Integer(),
  geometry: Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }),
  warnings: Type.Optional(Type.Array(RouteWarning)),
  truck: Type.Optional(Type.Object({ validation: TruckValidation })),
}, { title: 'Route' });
export type RouteResponse = Static<typeof RouteResponse>;

/** GET /route with geometry_format=polyline6: the route response with the line as an encoded polyline. */
export const RoutePolylineResponse = Type.Object({
  distanceMeters: Type.Integer(),
  durationSeconds: Type.Integer(),
  geometry: Type.String({ description: 'Encoded polyline, precision 6 (1e-6 degrees, latitude first): the LineString\'s positions exactly' }),
  warnings: Type.Optional(Type.Array(RouteWarning)),
  truck: Type.Optional(Type.Object({ validation: TruckValidation })),
}, { title: 'RoutePolyline6' });

export const IsochroneQuery = Type.Object({
  lon: text('Origin longitude', 'invalid_location', 50),
  lat: text('Origin latitude', 'invalid_location', 50),
  minutes: text(`Comma list of up to ${MAX_ISOCHRONE_BANDS} bands, each ${MAX_ISOCHRONE_MINUTES} or less (fractions accepted; zero, negative and non-finite values are dropped)`, 'invalid_route_option'),
  mode: text(`${ISOCHRONE_MODES.join(', ')} (default auto)`, 'invalid_mode'),
  ...preferenceParameters,
});
export type IsochroneQuery = Static<typeof IsochroneQuery>;

const Ring = Type.Array(Position);
export const IsochroneFeature = Type.Object({
  type: Type.Literal('Feature'),
  geometry: Type.Union([
    Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Ring) }),
    Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Ring)) }),
  ]),
  properties: Type.Object({
    contour: Type.Number({ description: 'The band, in minutes as requested: match on it, not on position' }),
    metric: Type.Literal('time'),
    color: Type.String(),
    opacity: Type.Number(),
    fill: Type.String(),
    fillColor: Type.String(),
    fillOpacity: Type.Number(),
    'fill-opacity': Type.Number(),
  }),
});
export const IsochroneResponse = Type.Object({
  type: Type.Literal('FeatureCollection'),
  features: Type.Array(IsochroneFeature, { description: 'One per band, largest band first' }),
}, { title: 'Isochrone' });
export type IsochroneResponse = Static<typeof IsochroneResponse>;

const LngLatPair = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, [ERROR_MESSAGE_KEYWORD]: 'must be [lng, lat]', [ERROR_CODE_KEYWORD]: 'invalid_location' });
const Locations = (name: string) =>
  Type.Array(LngLatPair, { minItems: 1, description: `${name}: [lng, lat] pairs, 1 to ${MAX_MATRIX_LOCATIONS}`, [ERROR_MESSAGE_KEYWORD]: 'must be an array of [lng, lat] pairs', [ERROR_CODE_KEYWORD]: 'invalid_location' });
const { avoid: _queryAvoid, ...roadOptions } = preferenceParameters;

export const MatrixBody = Type.Object({
  origins: Locations('Origins'),
  destinations: Locations('Destinations'),
  mode: Type.Optional(Type.String({ description: `${ISOCHRONE_MODES.join(', ')} (default auto)`, [ERROR_CODE_KEYWORD]: 'invalid_mode' })),
  avoid: Type.Optional(Type.Array(Type.String(), { description: 'tolls, highways, ferries (preferences)', [ERROR_MESSAGE_KEYWORD]: 'must be an array of strings', [ERROR_CODE_KEYWORD]: 'invalid_route_option' })),
  ...roadOptions,
}, { [ERROR_CODE_KEYWORD]: 'invalid_body' });
export type MatrixBody = Static<typeof MatrixBody>;

export const MatrixResponse = Type.Object({
  durations: Type.Array(Type.Array(Type.Integer()), { description: 'Seconds, one row per origin, one column per destination' }),
  distances: Type.Array(Type.Array(Type.Integer()), { description: 'Metres, same layout' }),
}, { title: 'Matrix' });
export type MatrixResponse = Static<typeof MatrixResponse>;
