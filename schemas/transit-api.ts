import { Type, type Static, type TSchema } from '@sinclair/typebox';
import { Nullable } from './common.ts';

/**
 * Requests and responses of the static transit API (volume 2, "Transit objects", "Static transit")
 * and GET /coverage.json. The routes validate with these and /openapi.json is generated from them.
 */

/** What each error status of a transit route means (documented in /openapi.json). */
export const TRANSIT_ERRORS: Readonly<Record<number, string>> = {
  400: 'a parameter is malformed or out of range; error names it',
  404: 'no record with this id in the enabled release',
  503: 'no valid transit release is enabled (retryable, Retry-After: 5)',
};

// ---- requests -------------------------------------------------------------------------------

export const TransitIdParams = Type.Object({
  id: Type.String({ minLength: 1, description: 'service id (svc:transit:...), URL-encoded as one path segment; an unknown one is a 404' }),
});
export type TransitIdParams = Static<typeof TransitIdParams>;

export const NearbyStopsQuery = Type.Object({
  near: Type.String({ description: 'lng,lat in WGS84 degrees' }),
  radius: Type.Optional(Type.Integer({ minimum: 50, maximum: 10_000, default: 1_000, description: 'metres' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
});
export type NearbyStopsQuery = Static<typeof NearbyStopsQuery>;

export const DeparturesQuery = Type.Object({
  at: Type.Optional(Type.String({ description: 'ISO 8601 instant with Z or an offset (default now); a local time without offset is rejected' })),
  window: Type.Optional(Type.Integer({ minimum: 1, maximum: 240, default: 60, description: 'minutes after at' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
});
export type DeparturesQuery = Static<typeof DeparturesQuery>;

// ---- records --------------------------------------------------------------------------------

export const FeedMeta = Type.Object({
  feed_id: Type.String(),
  source: Type.String(),
  source_updated_at: Nullable(Type.String()),
  source_version: Type.String(),
  content_hash: Type.String(),
  licence: Nullable(Type.String()),
  attribution: Type.String(),
});
export type FeedMeta = Static<typeof FeedMeta>;

export const TransitMeta = Type.Object(
  {
    source: Type.String(),
    source_updated_at: Nullable(Type.String()),
    source_version: Type.String(),
    content_hash: Type.String(),
    data_version: Type.String({ description: 'the transit release id' }),
    svc_updated_at: Type.String({ description: "the release's created_at" }),
    status: Type.Literal('current'),
    attribution: Type.String(),
    schedule_type: Type.Literal('scheduled'),
    feeds: Type.Array(FeedMeta, { description: 'each feed the data came from; the members above combine them' }),
  },
  {
    description:
      'Provenance of the answer. With one feed the members are that feed\'s; with several, source, source_version and ' +
      'attribution are joined with "; " in feed order, source_updated_at is the newest, content_hash is the release\'s.',
  },
);
export type TransitMeta = Static<typeof TransitMeta>;

export const Agency = Type.Object({
  id: Type.String(),
  feed_id: Type.String(),
  name: Type.String(),
  url: Nullable(Type.String()),
  timezone: Type.String(),
  lang: Nullable(Type.String()),
  phone: Nullable(Type.String()),
});
export type Agency = Static<typeof Agency>;

export const StopLocationType = Type.Union([
  Type.Literal('stop'), Type.Literal('station'), Type.Literal('entrance'), Type.Literal('node'), Type.Literal('boarding_area'),
], { description: 'GTFS location_type 0 to 4' });

const stopMembers = {
  id: Type.String(),
  feed_id: Type.String(),
  code: Nullable(Type.String()),
  name: Nullable(Type.String()),
  lon: Nullable(Type.Number()),
  lat: Nullable(Type.Number()),
  location_type: StopLocationType,
  parent_id: Nullable(Type.String()),
  children: Type.Array(Type.String(), { description: 'child stops (a station\'s platforms, entrances, ...)' }),
  timezone: Type.String({ description: 'display only: GTFS times are in the agency zone' }),
  wheelchair_boarding: Nullable(Type.Integer()),
  routes: Type.Array(Type.String(), { description: 'routes calling here; a station aggregates its platforms\' routes' }),
};
export const Stop = Type.Object(stopMembers);
export type Stop = Static<typeof Stop>;

export const NearbyStop = Type.Object({ ...stopMembers, distance: Type.Integer({ description: 'metres, great-circle' }) });
export type NearbyStop = Static<typeof NearbyStop>;

export const TransitRoute = Type.Object({
  id: Type.String(),
  feed_id: Type.String(),
  agency_id: Type.String(),
  short_name: Nullable(Type.String()),
  long_name: Nullable(Type.String()),
  description: Nullable(Type.String()),
  type: Type.Integer(),
  url: Nullable(Type.String()),
  color: Nullable(Type.String()),
  text_color: Nullable(Type.String()),
});
export type TransitRoute = Static<typeof TransitRoute>;

export const Departure = Type.Object({
  stop_id: Type.String(),
  route_id: Type.String(),
  trip_id: Type.String(),
  headsign: Type.String({ description: 'stop_headsign, else trip_headsign, else ""' }),
  arrival: Type.String({ description: 'ISO 8601 UTC instant' }),
  departure: Type.String({ description: 'ISO 8601 UTC instant' }),
  stop_sequence: Type.Integer(),
  schedule_type: Type.Literal('scheduled'),
});
export type Departure = Static<typeof Departure>;

// ---- responses ------------------------------------------------------------------------------

const envelope = <T extends TSchema>(data: T) => Type.Object({ data, meta: TransitMeta });

export const AgenciesResponse = envelope(Type.Array(Agency));
export const NearbyStopsResponse = envelope(Type.Array(NearbyStop));
export const StopResponse = envelope(Stop);
export const TransitRouteByIdResponse = envelope(TransitRoute);
export const DeparturesResponse = envelope(Type.Array(Departure));


export const CoverageFeed = Type.Object(
  {
    feed_id: Type.String(),
    status: Type.String({ description: "'included' or 'refused'" }),
    source: Type.Optional(Type.String()),
    licence: Type.Optional(Nullable(Type.String())),
    attribution: Type.Optional(Nullable(Type.String())),
    reason: Type.Optional(Nullable(Type.String())),
    gap: Type.Optional(Nullable(Type.String())),
  },
  { additionalProperties: true, description: 'one assessed feed as the release manifest records it' },
);

export const CoverageResponse = Type.Object({
  release_id: Type.String(),
  release_created_at: Type.String(),
  feeds: Type.Array(CoverageFeed),
});
export type CoverageResponse = Static<typeof CoverageResponse>;
