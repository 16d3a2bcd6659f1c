import { ROAD_EVENT_JURISDICTIONS } from '../../engines/road-events/jurisdictions.ts';
import { ROAD_EVENTS_DEFAULT_RADIUS_M, EVENT_STATUSES, EVENT_TYPES, SEVERITIES, type RoadEventsQuery } from '../../schemas/road-events-api.ts';
import { parsePublisherTime } from '../../engines/road-events/publisher-time.ts';
import type { RoadEventsFilter } from '../../engines/road-events/select.ts';
import { parseBBox, parseLngLat } from '../../lib/geo/parse.ts';
import { BBOX_WORDING } from './bbox.ts';
import { accept, reject, type Checked } from '../../lib/checked.ts';

function jurisdictions(raw: string | undefined): Checked<string[]> {
  const covered = ROAD_EVENT_JURISDICTIONS.join(', ');
  if (raw === undefined) return accept([...ROAD_EVENT_JURISDICTIONS]);
  const codes = raw.split(',').map((c) => c.trim().toUpperCase());
  const bad = codes.find((c) => !(ROAD_EVENT_JURISDICTIONS as string[]).includes(c));
  if (bad !== undefined) {
    return reject(`jurisdiction must be ${covered}: road events cover British Columbia only${bad ? ` (got ${JSON.stringify(bad)})` : ''}`);
  }
  return accept([...new Set(codes)]);
}

function bbox(raw: string | undefined): Checked<RoadEventsFilter['bbox']> {
  if (raw === undefined) return accept(null);
  const parsed = parseBBox(raw);
  return parsed.ok ? accept(parsed.value) : reject(BBOX_WORDING[parsed.problem]);
}

const NEAR_WORDING: Record<'format' | 'longitude' | 'latitude', string> = {
  format: 'near must be lng,lat: two decimal numbers separated by a comma, e.g. near=-123.37,48.43',
  longitude: 'near longitude must be between -180 and 180 (near is lng,lat)',
  latitude: 'near latitude must be between -90 and 90 (near is lng,lat)',
};

/** radius's range (1..500000) is the schema's: it arrives here checked. */
function near(raw: string | undefined, radius: number | undefined): Checked<RoadEventsFilter['near']> {
  if (raw === undefined) return radius !== undefined ? reject('radius needs near=lng,lat') : accept(null);
  const parsed = parseLngLat(raw);
  if (!parsed.ok) return reject(NEAR_WORDING[parsed.problem]);
  return accept({ ...parsed.value, radius: radius ?? ROAD_EVENTS_DEFAULT_RADIUS_M });
}

function oneOrMore<T extends string>(name: string, raw: string | undefined, values: readonly T[]): Checked<Set<T> | null> {
  if (raw === undefined) return accept(null);
  const picked = raw.split(',').map((v) => v.trim().toLowerCase());
  if (!picked.every((v) => (values as readonly string[]).includes(v))) {
    return reject(`${name} must be one or more of ${values.join(', ')} (comma-separated)`);
  }
  return accept(new Set(picked as T[]));
}

function updatedSince(raw: string | undefined): Checked<number | null> {
  if (raw === undefined) return accept(null);
  // A '+' of the offset arrives as a space when the client did not encode it.
  const text = raw.trim().replace(/ (\d{2}(?::?\d{2})?)$/, '+$1');
  const hint = 'updated_since must be an ISO 8601 date-time with Z or a UTC offset, e.g. 2026-03-08T14:30:00Z';
  if (!/(Z|[+-]\d{2}(:?\d{2})?)$/i.test(text)) return reject(hint);
  const parsed = parsePublisherTime(text, 'UTC');
  return parsed ? accept(parsed.ms) : reject(hint);
}

/** The filters of a request, or the 400 wording naming the first parameter that is wrong (in this order). */
export function checkRoadEventsQuery(query: RoadEventsQuery): Checked<RoadEventsFilter> {
  const j = jurisdictions(query.jurisdiction);
  if (!j.ok) return j;
  const box = bbox(query.bbox);
  if (!box.ok) return box;
  const circle = near(query.near, query.radius);
  if (!circle.ok) return circle;
  const types = oneOrMore('type', query.type, EVENT_TYPES);
  if (!types.ok) return types;
  const severities = oneOrMore('severity', query.severity, SEVERITIES);
  if (!severities.ok) return severities;
  const statuses = oneOrMore('status', query.status, EVENT_STATUSES);
  if (!statuses.ok) return statuses;
  const since = updatedSince(query.updated_since);
  if (!since.ok) return since;
  return accept({
    jurisdictions: j.value,
    bbox: box.value,
    near: circle.value,
    types: types.value,
    severities: severities.value,
    statuses: statuses.value,
    updatedSinceMs: since.value,
    limit: query.limit,
  });
}
