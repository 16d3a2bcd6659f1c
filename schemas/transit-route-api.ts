import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common.ts';
import { RouteWarning } from './routing-api.ts';

/** GET /route?mode=transit (volume 3 Route response plus the transit members; volume 2 ids). */

const Instant = Type.String({ description: 'ISO 8601 UTC instant, whole seconds' });
const Position = Type.Tuple([Type.Number(), Type.Number()], { description: '[lng, lat], six decimals' });

export const TransitRouteStop = Type.Object({
  id: Type.String({ description: 'svc:transit:stop:<feed>:<stop_id>' }),
  name: Nullable(Type.String()),
  lng: Nullable(Type.Number()),
  lat: Nullable(Type.Number()),
});

const WalkEnd = Type.Object({
  id: Type.Optional(Type.String({ description: 'the stop, when the walk starts or ends at one' })),
  name: Type.Optional(Nullable(Type.String())),
  lng: Type.Number(),
  lat: Type.Number(),
}, { description: 'a stop, or the request\'s from/to point (no id)' });

export const TransitWalkLeg = Type.Object({
  mode: Type.Literal('walk'),
  from: WalkEnd,
  to: WalkEnd,
  departure: Instant,
  arrival: Instant,
  distanceMeters: Type.Number({ description: 'great-circle distance × 1.25, one decimal' }),
});

export const TransitRideLeg = Type.Object({
  mode: Type.Literal('ride'),
  route: Type.Object({ id: Type.String(), shortName: Type.Optional(Type.String()), longName: Type.Optional(Type.String()) }),
  trip: Type.Object({ id: Type.String() }),
  headsign: Type.String({ description: 'trip_headsign, else ""' }),
  from: TransitRouteStop,
  to: TransitRouteStop,
  departure: Instant,
  arrival: Instant,
  intermediateStops: Type.Array(Type.Object({ stop: TransitRouteStop, arrival: Instant, departure: Instant }), { description: 'stops passed between from and to, in order' }),
});

export const TransitLeg = Type.Union([TransitWalkLeg, TransitRideLeg]);
export type TransitLeg = Static<typeof TransitLeg>;

const journeyMembers = {
  departure: Instant,
  arrival: Instant,
  transfers: Type.Integer({ description: 'rides − 1 (0 with no ride)' }),
  legs: Type.Array(TransitLeg),
};

export const TransitAlternative = Type.Object({
  distanceMeters: Type.Integer(),
  durationSeconds: Type.Integer({ description: 'arrival − depart_at' }),
  ...journeyMembers,
});
export type TransitAlternative = Static<typeof TransitAlternative>;

export const TransitRouteResponse = Type.Object({
  distanceMeters: Type.Integer({ description: 'walks plus rides (great-circle between consecutive stops)' }),
  durationSeconds: Type.Integer({ description: 'arrival − depart_at' }),
  geometry: Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }),
  warnings: Type.Optional(Type.Array(RouteWarning)),
  schedule_type: Type.Literal('scheduled', { description: 'always scheduled times, never realtime' }),
  ...journeyMembers,
  alternatives: Type.Optional(Type.Array(TransitAlternative, { description: 'the other journeys of the Pareto set over (arrival, transfers): later but with fewer transfers' })),
}, { title: 'TransitRoute' });
export type TransitRouteResponse = Static<typeof TransitRouteResponse>;
