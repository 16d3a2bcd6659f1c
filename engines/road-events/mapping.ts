/**
 * How Open511 values become volume 2 values. Anything not listed here becomes `unknown`: no
 * value is ever inferred from another field (an event type never implies a closure, a lane state
 * never implies a surface). The README's mapping table is this file.
 */

export const EVENT_TYPES = ['closure', 'incident', 'construction', 'weather', 'restriction', 'ferry', 'hazard', 'special_event', 'unknown'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const SEVERITIES = ['minor', 'major', 'unknown'] as const;
export type Severity = (typeof SEVERITIES)[number];

export const EVENT_STATUSES = ['active', 'planned', 'archived'] as const;
export type EventStatus = (typeof EVENT_STATUSES)[number];

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
 * Ordering rank, "most severe first": the publisher's scale, so MODERATE (served as unknown)
 * still sorts between MAJOR and MINOR. UNKNOWN and unmapped tokens come last: they may be anything.
 */
export const SEVERITY_RANK_BY_SEVERITY: Record<string, number> = { MAJOR: 3, MODERATE: 2, MINOR: 1 };
export const severityRank = (token: string): number => (Object.hasOwn(SEVERITY_RANK_BY_SEVERITY, token) ? SEVERITY_RANK_BY_SEVERITY[token]! : 0);

/** roads[].state: lane availability, the only source of `closed`. */
export const LANE_STATE_BY_STATE = {
  CLOSED: 'closed',
  SOME_LANES_CLOSED: 'some_lanes_closed',
  SINGLE_LANE_ALTERNATING: 'single_lane_alternating',
  ALL_LANES_OPEN: 'all_lanes_open',
} as const;
export type LaneState = (typeof LANE_STATE_BY_STATE)[keyof typeof LANE_STATE_BY_STATE];

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
} as const;
export type Surface = (typeof SURFACE_BY_SUBTYPE)[keyof typeof SURFACE_BY_SUBTYPE];

export const CONDITIONS = [...Object.values(LANE_STATE_BY_STATE), ...Object.values(SURFACE_BY_SUBTYPE), 'unknown'] as const;
export type Condition = LaneState | Surface | 'unknown';

/** roads[].direction; an absent direction is unknown (Open511: "if direction is simply unknown, omit this field"). */
export const DIRECTION_BY_DIRECTION = {
  N: 'n', NE: 'ne', E: 'e', SE: 'se', S: 's', SW: 'sw', W: 'w', NW: 'nw', BOTH: 'both', NONE: 'none',
} as const;
export const DIRECTIONS = [...Object.values(DIRECTION_BY_DIRECTION), 'unknown'] as const;
export type Direction = (typeof DIRECTIONS)[number];

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
