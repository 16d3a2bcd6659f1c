/**
 * How Open511 values become volume 2 values. Anything not listed here becomes `unknown`: no
 * value is ever inferred from another field (an event type never implies a closure, a lane state
 * never implies a surface). The README's mapping table is this file; the volume 2 vocabularies
 * themselves are the API contract, in schemas/road-events-api.ts.
 */
import type { Direction, EventType, LaneState, Severity, Surface } from '../../schemas/road-events-api.ts';

export { CONDITIONS, DIRECTIONS, EVENT_STATUSES, EVENT_TYPES, SEVERITIES, type Condition, type Direction, type EventStatus, type EventType, type LaneState, type Severity, type Surface } from '../../schemas/road-events-api.ts';

/** event_type. ROAD_CONDITION has no volume 2 type (its surface is in `condition`). */
export const TYPE_BY_EVENT_TYPE: Record<string, EventType> = {
  CONSTRUCTION: 'construction',
  SPECIAL_EVENT: 'special_event',
  INCIDENT: 'incident',
  WEATHER_CONDITION: 'weather',
};

/** severity. MODERATE sits between minor and major, so it is not either of them. */
export const SEVERITY_BY_SEVERITY: Record<string, Severity> = {
  MINOR: 'minor',
  MAJOR: 'major',
};

/**
 * "Most severe first" ranks the severity as served, never the publisher's token, so the order
 * reads as the answer does: major, minor, then unknown (MODERATE, UNKNOWN and unmapped tokens),
 * which may be anything. Higher sorts first.
 */
export const SEVERITY_RANK: Readonly<Record<Severity, number>> = { major: 2, minor: 1, unknown: 0 };

/** roads[].state: lane availability, the only source of `closed`. */
export const LANE_STATE_BY_STATE = {
  CLOSED: 'closed',
  SOME_LANES_CLOSED: 'some_lanes_closed',
  SINGLE_LANE_ALTERNATING: 'single_lane_alternating',
  ALL_LANES_OPEN: 'all_lanes_open',
} as const satisfies Record<string, LaneState>;

/** event_subtypes that state the road surface. Other subtypes (ACCIDENT, POOR_VISIBILITY, ...) say nothing about it. */
export const SURFACE_BY_SUBTYPE = {
  PARTLY_ICY: 'partly_icy',
  ICE_COVERED: 'ice_covered',
  PARTLY_SNOW_PACKED: 'partly_snow_packed',
  SNOW_PACKED: 'snow_packed',
  PARTLY_SNOW_COVERED: 'partly_snow_covered',
  SNOW_COVERED: 'snow_covered',
  DRIFTING_SNOW: 'drifting_snow',
  MUD: 'mud',
  LOOSE_GRAVEL: 'loose_gravel',
  OIL_ON_ROADWAY: 'oil_on_roadway',
  SURFACE_WATER_HAZARD: 'surface_water',
  PASSABLE_WITH_CARE: 'passable_with_care',
  ALMOST_IMPASSABLE: 'almost_impassable',
} as const satisfies Record<string, Surface>;

/** roads[].direction; an absent direction is unknown (Open511: "if direction is simply unknown, omit this field"). */
export const DIRECTION_BY_DIRECTION = {
  N: 'n', NE: 'ne', E: 'e', SE: 'se', S: 's', SW: 'sw', W: 'w', NW: 'nw', BOTH: 'both', NONE: 'none',
} as const satisfies Record<string, Direction>;

/** status; an ACTIVE event is active, planned or archived by its schedule (event-status.ts). */
export const PUBLISHER_STATUS = { ACTIVE: 'active', ARCHIVED: 'archived' } as const;
export type PublisherStatus = (typeof PUBLISHER_STATUS)[keyof typeof PUBLISHER_STATUS];

/** When several roads state different lane availability, the event's condition is the most restrictive. */
const LANE_STATE_RANK: Record<LaneState, number> = { closed: 3, single_lane_alternating: 2, some_lanes_closed: 1, all_lanes_open: 0 };

export const mostRestrictive = (states: LaneState[]): LaneState | null =>
  states.reduce<LaneState | null>((best, s) => (best === null || LANE_STATE_RANK[s] > LANE_STATE_RANK[best] ? s : best), null);

/** An Open511 enumeration token (a value that is not one is a validation error, not an unmapped value). */
export const TOKEN = /^[A-Z][A-Z0-9_]*$/;

export function lookup<T extends string>(table: Record<string, T>, token: string): T | 'unknown' {
  return Object.hasOwn(table, token) ? table[token]! : 'unknown';
}
