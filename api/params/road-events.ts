import type { BBox } from '../../engines/road-events/geometry.ts';
import { ROAD_EVENT_JURISDICTIONS } from '../../engines/road-events/jurisdictions.ts';
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES, type EventStatus, type EventType, type Severity } from '../../engines/road-events/mapping.ts';
import { parsePublisherTime } from '../../engines/road-events/publisher-time.ts';
import type { RoadEventsQuery } from '../../schemas/road-events-api.ts';

/** A request's filters, checked. */
export interface RoadEventsFilter {
  jurisdictions: string[];
  bbox: BBox | null;
  near: { lng: number; lat: number; radius: number } | null;
  types: Set<EventType> | null;
  severities: Set<Severity> | null;
  statuses: Set<EventStatus> | null;
  updatedSinceMs: number | null;
  limit: number;
}

export const DEFAULT_RADIUS = 25_000;
export const MAX_RADIUS = 500_000;
export const MAX_LIMIT = 500;

/** A 400 naming the parameter at fault. */
export class ParamError extends Error {}

const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/;

function decimals(name: string, raw: string, count: number, hint: string): number[] {
  const parts = raw.split(',').map((p) => p.trim());
  if (parts.length !== count || !parts.every((p) => DECIMAL.test(p))) throw new ParamError(`${name} must be ${hint}`);
  return parts.map(Number);
}

function jurisdictions(raw: string | undefined): string[] {
  const covered = ROAD_EVENT_JURISDICTIONS.join(', ');
  if (raw === undefined) return [...ROAD_EVENT_JURISDICTIONS];
  const codes = raw.split(',').map((c) => c.trim().toUpperCase());
  const bad = codes.find((c) => !(ROAD_EVENT_JURISDICTIONS as string[]).includes(c));
  if (bad !== undefined) {
    throw new ParamError(`jurisdiction must be ${covered}: road events cover British Columbia only${bad ? ` (got ${JSON.stringify(bad)})` : ''}`);
  }
  return [...new Set(codes)];
}

function bbox(raw: string | undefined): BBox | null {
  if (raw === undefined) return null;
  const hint = 'west,south,east,north with 4 finite numbers, e.g. bbox=-123.5,48.3,-123.2,48.6';
  const [west, south, east, north] = decimals('bbox', raw, 4, hint) as [number, number, number, number];
  if ([west, east].some((v) => v < -180 || v > 180) || [south, north].some((v) => v < -90 || v > 90)) {
    throw new ParamError('bbox must be west,south,east,north with longitudes between -180 and 180 and latitudes between -90 and 90');
  }
  if (south > north) throw new ParamError('bbox south must not be greater than north (bbox is west,south,east,north)');
  if (west > east) throw new ParamError('bbox west must not be greater than east (bbox is west,south,east,north)');
  return { minLon: west, minLat: south, maxLon: east, maxLat: north };
}

function integer(name: string, value: unknown, min: number, max: number): number {
  // AJV coerced it already; "1e999" arrives as Infinity, which its range check lets through.
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) throw new ParamError(`${name} must be an integer between ${min} and ${max}`);
  return value;
}

function near(raw: string | undefined, radius: unknown): RoadEventsFilter['near'] {
  if (raw === undefined) {
    if (radius !== undefined) throw new ParamError('radius needs near=lng,lat');
    return null;
  }
  const [lng, lat] = decimals('near', raw, 2, 'lng,lat: two decimal numbers separated by a comma, e.g. near=-123.37,48.43') as [number, number];
  if (lng < -180 || lng > 180) throw new ParamError('near longitude must be between -180 and 180 (near is lng,lat)');
  if (lat < -90 || lat > 90) throw new ParamError('near latitude must be between -90 and 90 (near is lng,lat)');
  return { lng, lat, radius: radius === undefined ? DEFAULT_RADIUS : integer('radius', radius, 1, MAX_RADIUS) };
}

function oneOrMore<T extends string>(name: string, raw: string | undefined, values: readonly T[]): Set<T> | null {
  if (raw === undefined) return null;
  const picked = raw.split(',').map((v) => v.trim().toLowerCase());
  if (!picked.every((v) => (values as readonly string[]).includes(v))) {
    throw new ParamError(`${name} must be one or more of ${values.join(', ')} (comma-separated)`);
  }
  return new Set(picked as T[]);
}

function updatedSince(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  // A '+' of the offset arrives as a space when the client did not encode it.
  const text = raw.trim().replace(/ (\d{2}(?::?\d{2})?)$/, '+$1');
  const hint = 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z';
  if (!/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(text)) throw new ParamError(hint);
  const parsed = parsePublisherTime(text, 'UTC');
  if (!parsed) throw new ParamError(hint);
  return parsed.ms;
}

/** The filters of a request, or a ParamError naming the parameter. */
export function readFilter(query: RoadEventsQuery): RoadEventsFilter {
  return {
    jurisdictions: jurisdictions(query.jurisdiction),
    bbox: bbox(query.bbox),
    near: near(query.near, query.radius),
    types: oneOrMore('type', query.type, EVENT_TYPES),
    severities: oneOrMore('severity', query.severity, SEVERITIES),
    statuses: oneOrMore('status', query.status, EVENT_STATUSES),
    updatedSinceMs: updatedSince(query.updated_since),
    limit: integer('limit', query.limit, 1, MAX_LIMIT),
  };
}
