import { Type, type Static } from '@sinclair/typebox';
import { errorResponses, Nullable } from './common.ts';

/**
 * Requests and responses of GET /incidents, /closures and /road-conditions (volume 2, "Road
 * event", "Road events"). The routes validate with these and /openapi.json is generated from them.
 */

const literals = (values: readonly string[], description?: string) =>
  Type.Union(values.map((v) => Type.Literal(v)), description ? { description } : {});

// ---- vocabulary (engines/road-events/mapping.ts maps publisher values onto these) ----------

export const EVENT_TYPES = ['closure', 'incident', 'construction', 'weather', 'restriction', 'ferry', 'hazard', 'special_event', 'unknown'] as const;
export type EventType = (typeof EVENT_TYPES)[number];
export const SEVERITIES = ['minor', 'major', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];
export const EVENT_STATUSES = ['active', 'planned', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];
/** Lane availability: the only source of `closed`. */
export const LANE_STATES = ['closed', 'some_lanes_closed', 'single_lane_alternating', 'all_lanes_open'] as const;
export type LaneState = (typeof LANE_STATES)[number];
/** Road surface, from the event subtypes. */
export const SURFACES = [
  'partly_icy', 'ice_covered', 'partly_snow_packed', 'snow_packed', 'partly_snow_covered', 'snow_covered', 'drifting_snow',
  'mud', 'loose_gravel', 'oil_on_roadway', 'surface_water', 'passable_with_care', 'almost_impassable',
] as const;
export type Surface = (typeof SURFACES)[number];
export const CONDITIONS = [...LANE_STATES, ...SURFACES, 'unknown'] as const;
export type Condition = (typeof CONDITIONS)[number];
export const DIRECTIONS = ['n', 'ne', 'e', 'se', 's', 'sw', 'w', 'nw', 'both', 'none', 'unknown'] as const;
export type Direction = (typeof DIRECTIONS)[number];

// ---- requests -------------------------------------------------------------------------------

const list = (values: readonly string[]) => `comma-separated, any of: ${values.join(', ')}`;

export const ROAD_EVENTS_DEFAULT_RADIUS_M = 25_000;
export const ROAD_EVENTS_MAX_RADIUS_M = 500_000;
export const ROAD_EVENTS_MAX_LIMIT = 500;

export const RoadEventsQuery = Type.Object({
  jurisdiction: Type.Optional(Type.String({ description: 'comma-separated ISO 3166-2 codes; only CA-BC is covered' })),
  bbox: Type.Optional(Type.String({ description: 'west,south,east,north in WGS84 degrees' })),
  near: Type.Optional(Type.String({ description: 'lng,lat in WGS84 degrees; lines match by their distance to the point' })),
  radius: Type.Optional(Type.Integer({ minimum: 1, maximum: ROAD_EVENTS_MAX_RADIUS_M, description: `metres around near (default ${ROAD_EVENTS_DEFAULT_RADIUS_M})` })),
  type: Type.Optional(Type.String({ description: list(EVENT_TYPES) })),
  severity: Type.Optional(Type.String({ description: list(SEVERITIES) })),
  status: Type.Optional(Type.String({ description: `${list(EVENT_STATUSES)}; /closures lists only active ones unless given` })),
  updated_since: Type.Optional(Type.String({ description: 'ISO 8601 instant with Z or an offset: events the publisher changed at or after it' })),
  limit: Type.Integer({ minimum: 1, maximum: ROAD_EVENTS_MAX_LIMIT, default: 100, description: 'answers are not paged' }),
});
export type RoadEventsQuery = Static<typeof RoadEventsQuery>;

// ---- records --------------------------------------------------------------------------------

const Position = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[lng, lat]' });

export const RoadEventGeometry = Type.Union([
  Type.Object({ type: Type.Literal('Point'), coordinates: Position }),
  Type.Object({ type: Type.Literal('MultiPoint'), coordinates: Type.Array(Position) }),
  Type.Object({ type: Type.Literal('LineString'), coordinates: Type.Array(Position) }),
  Type.Object({ type: Type.Literal('MultiLineString'), coordinates: Type.Array(Type.Array(Position)) }),
  Type.Object({ type: Type.Literal('Polygon'), coordinates: Type.Array(Type.Array(Position), { description: 'linear rings: outer, then holes' }) }),
  Type.Object({ type: Type.Literal('MultiPolygon'), coordinates: Type.Array(Type.Array(Type.Array(Position))) }),
], { description: 'GeoJSON geometry as published (WGS84)' });

export const RoadEventRoad = Type.Object({
  name: Type.String(),
  direction: literals(DIRECTIONS, 'Open511 direction lower-cased; unknown when not given'),
  closed: Type.Boolean({ description: 'true only when the publisher\'s road state is CLOSED' }),
  from: Nullable(Type.String()),
  to: Nullable(Type.String()),
  condition: literals(CONDITIONS, 'this road\'s lane state, else the event\'s stated surface, else unknown'),
});
export type RoadEventRoad = Static<typeof RoadEventRoad>;

export const RoadEvent = Type.Object({
  id: Type.String({ description: 'svc:road:<jurisdiction lower-case>:<url-encoded source id>' }),
  source_id: Type.String({ description: "publisher's id" }),
  jurisdiction: Type.String({ description: 'ISO 3166-2' }),
  type: literals(EVENT_TYPES),
  severity: literals(SEVERITIES, 'MINOR, MAJOR as minor, major; MODERATE, UNKNOWN and unmapped values as unknown'),
  condition: literals(CONDITIONS, 'closed when a road state is CLOSED; else the stated surface; else the most restrictive stated lane state; else unknown'),
  description: Type.String({ description: "publisher's text verbatim (English)" }),
  roads: Type.Array(RoadEventRoad),
  geometry: RoadEventGeometry,
  starts_at: Nullable(Type.String({ description: 'start of the schedule (its first window), ISO 8601 with offset; null when not known' })),
  ends_at: Nullable(Type.String({ description: 'end of the schedule (its last window), ISO 8601 with offset; null when open-ended' })),
  source_updated_at: Type.String({ description: "publisher's update time, ISO 8601 with offset" }),
  svc_updated_at: Type.String({ description: 'when canmap last saw this event change, ISO 8601 UTC' }),
  source: Type.String({ description: 'dataset label' }),
  status: literals(EVENT_STATUSES, 'active: in force now (inside an interval or a window of its recurring schedule); planned: its next window starts later; archived: the publisher archived it or its schedule has ended'),
});
export type RoadEvent = Static<typeof RoadEvent>;

export const Unavailable = Type.Object({ jurisdiction: Type.String(), reason: Type.String() });

export const RoadEventsMeta = Type.Object({
  source: Type.String(),
  status: literals(['current', 'stale', 'partial'], 'current; stale: upstream answers but nothing changed for over an hour; partial: a requested jurisdiction could not be reached (see unavailable)'),
  attribution: Type.String(),
  fetched_at: Nullable(Type.String({ description: 'last successful poll of the requested jurisdictions (oldest of them), ISO 8601 UTC' })),
  unavailable: Type.Optional(Type.Array(Unavailable, { description: 'present when a requested jurisdiction could not be reached; an empty data list is then no proof that nothing is closed' })),
});
export type RoadEventsMeta = Static<typeof RoadEventsMeta>;

// ---- responses ------------------------------------------------------------------------------

export const RoadEventsResponse = Type.Object({ data: Type.Array(RoadEvent), meta: RoadEventsMeta });
export type RoadEventsResponse = Static<typeof RoadEventsResponse>;


/** What each error status of a road-events route means (documented in /openapi.json). */
export const ROAD_EVENTS_ERRORS: Readonly<Record<number, string>> = {
  400: 'a parameter is malformed, out of range or names a jurisdiction not covered; error names it',
  503: 'no requested jurisdiction has a usable snapshot (retryable, Retry-After: 30)',
};

/** The route schema of one road-events endpoint: same parameters and answers on all three. */
export function roadEventsRouteSchema(summary: string, description: string) {
  return {
    tags: ['road events'],
    summary,
    description: `${description} Order: most severe first by the severity served (major, minor, then unknown, ` +
      'which holds MODERATE, UNKNOWN and unmapped values), then most recently updated by the publisher. Cache-Control: public, max-age=60. meta.status is current, ' +
      'stale (upstream answers but nothing changed for over an hour) or partial (a requested jurisdiction could not be reached; see meta.unavailable).',
    querystring: RoadEventsQuery,
    response: { 200: RoadEventsResponse, ...errorResponses(ROAD_EVENTS_ERRORS, 400, 503) },
  };
}
