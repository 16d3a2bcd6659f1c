import { ROAD_EVENT_JURISDICTIONS } from '../../engines/road-events/jurisdictions.ts';
import { DEFAULT_RADIUS_M, EVENT_STATUSES, EVENT_TYPES, SEVERITIES, type RoadEventsQuery } from '../../schemas/road-events-api.ts';
import { parsePublisherTime } from '../../engines/road-events/publisher-time.ts';
import type { RoadEventsFilter } from '../../engines/road-events/select.ts';
import { parseBBox, parseLngLat } from '../../lib/geo/parse.ts';
import { BBOX_WORDING } from './bbox.ts';
import { errors } from '../../lib/errors.ts';


function jurisdictions(raw: string | undefined): string[] {
  const covered = ROAD_EVENT_JURISDICTIONS.join(', ');
  if (raw === undefined) return [...ROAD_EVENT_JURISDICTIONS];
  const codes = raw.split(',').map((c) => c.trim().toUpperCase());
  const bad = codes.find((c) => !(ROAD_EVENT_JURISDICTIONS as string[]).includes(c));
  if (bad !== undefined) {
    throw errors.badRequest(`jurisdiction must be ${covered}: road events cover British Columbia only${bad ? ` (got ${JSON.stringify(bad)})` : ''}`);
  }
  return [...new Set(codes)];
}


function bbox(raw: string | undefined): RoadEventsFilter['bbox'] {
  if (raw === undefined) return null;
  const parsed = parseBBox(raw);
  if (!parsed.ok) throw errors.badRequest(BBOX_WORDING[parsed.problem]);
  return parsed.value;
}

const NEAR_WORDING: Record<'format' | 'longitude' | 'latitude', string> = {
  format: 'near must be lng,lat: two decimal numbers separated by a comma, e.g. near=-123.37,48.43',
  longitude: 'near longitude must be between -180 and 180 (near is lng,lat)',
  latitude: 'near latitude must be between -90 and 90 (near is lng,lat)',
};

/** radius's range (1..500000) is the schema's: it arrives here checked. */
function near(raw: string | undefined, radius: number | undefined): RoadEventsFilter['near'] {
  if (raw === undefined) {
    if (radius !== undefined) throw errors.badRequest('radius needs near=lng,lat');
    return null;
  }
  const parsed = parseLngLat(raw);
  if (!parsed.ok) throw errors.badRequest(NEAR_WORDING[parsed.problem]);
  return { ...parsed.value, radius: radius ?? DEFAULT_RADIUS_M };
}

function oneOrMore<T extends string>(name: string, raw: string | undefined, values: readonly T[]): Set<T> | null {
  if (raw === undefined) return null;
  const picked = raw.split(',').map((v) => v.trim().toLowerCase());
  if (!picked.every((v) => (values as readonly string[]).includes(v))) {
    throw errors.badRequest(`${name} must be one or more of ${values.join(', ')} (comma-separated)`);
  }
  return new Set(picked as T[]);
}

function updatedSince(raw: string | undefined): number | null {
  if (raw === undefined) return null;
  // A '+' of the offset arrives as a space when the client did not encode it.
  const text = raw.trim().replace(/ (\d{2}(?::?\d{2})?)$/, '+$1');
  const hint = 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z';
  if (!/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(text)) throw errors.badRequest(hint);
  const parsed = parsePublisherTime(text, 'UTC');
  if (!parsed) throw errors.badRequest(hint);
  return parsed.ms;
}

/** The filters of a request; a 400 naming the parameter when one is wrong. */
export function readFilter(query: RoadEventsQuery): RoadEventsFilter {
  return {
    jurisdictions: jurisdictions(query.jurisdiction),
    bbox: bbox(query.bbox),
    near: near(query.near, query.radius),
    types: oneOrMore('type', query.type, EVENT_TYPES),
    severities: oneOrMore('severity', query.severity, SEVERITIES),
    statuses: oneOrMore('status', query.status, EVENT_STATUSES),
    updatedSinceMs: updatedSince(query.updated_since),
    limit: query.limit,
  };
}
