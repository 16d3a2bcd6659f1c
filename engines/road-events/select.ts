import { geometryTouchesBBox, pointGeometryMetres, circleBBox } from './geometry.ts';
import type { EventStatus, EventType, Severity } from './mapping.ts';
import { JURISDICTION_CODES, SEVERITY_CODES, STATUS_CODES, statusAt, TYPE_CODES, type CachedEvent, type EventColumns } from './event-columns.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

/** A request's filters, checked (api/params/road-events.ts reads them from the query). */
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

/** The base list an endpoint answers from: same filters, different events. */
export interface EventList {
  /** Only events with a road whose state is CLOSED, or only events stating a surface; null: every event. */
  only: 'closed' | 'surface' | null;
  /** The statuses listed when the request names none; null: every status. */
  defaultStatuses: ReadonlySet<EventStatus> | null;
}

export const EVENT_LISTS = {
  /** Every event the publisher lists now. */
  all: { only: null, defaultStatuses: null },
  /** Roads actually shut, in force now unless the request asks for other statuses. */
  closures: { only: 'closed', defaultStatuses: new Set<EventStatus>(['active']) },
  /** Events carrying a surface condition. */
  surface: { only: 'surface', defaultStatuses: null },
} as const satisfies Record<string, EventList>;

const codes = (values: Iterable<string> | null, list: readonly string[]) => (values ? new Set([...values].map((v) => list.indexOf(v))) : null);

/**
 * The events of one list matching the filters, in answer order (the columns are sorted), at
 * most filter.limit, each with its status at `nowMs`. Boxes are compared first; bbox then needs
 * some part of the geometry inside the box, near the exact distance to it (a line matches by its
 * nearest point).
 */
export function selectEvents(
  c: EventColumns,
  list: EventList,
  filter: RoadEventsFilter,
  served: Iterable<string>,
  nowMs: number,
): { event: CachedEvent; status: EventStatus }[] {
  const jurisdictions = codes(served, JURISDICTION_CODES)!;
  const types = codes(filter.types, TYPE_CODES);
  const severities = codes(filter.severities, SEVERITY_CODES);
  const statuses = codes(filter.statuses ?? list.defaultStatuses, STATUS_CODES);
  const since = filter.updatedSinceMs ?? -Infinity;
  const flag = list.only === 'closed' ? c.closed : list.only === 'surface' ? c.surface : null;
  // One box holding every spatial condition: events outside it are skipped on four comparisons.
  let reach: BBox | null = filter.bbox;
  if (filter.near) {
    const circle = circleBBox(filter.near.lng, filter.near.lat, filter.near.radius);
    reach = reach ? { minLon: Math.max(reach.minLon, circle.minLon), minLat: Math.max(reach.minLat, circle.minLat), maxLon: Math.min(reach.maxLon, circle.maxLon), maxLat: Math.min(reach.maxLat, circle.maxLat) } : circle;
  }
  const selected: { event: CachedEvent; status: EventStatus }[] = [];
  // A spatial query reads only the grid cells around it (unless they hold most events); indexes stay in answer order.
  const candidates = reach ? c.grid.candidates(reach) : null;
  const n = candidates ? candidates.length : c.events.length;
  for (let k = 0; k < n; k++) {
    const i = candidates ? candidates[k]! : k;
    if (reach && (c.maxLon[i]! < reach.minLon || c.minLon[i]! > reach.maxLon || c.maxLat[i]! < reach.minLat || c.minLat[i]! > reach.maxLat)) continue;
    if (flag && !flag[i]) continue;
    if (!jurisdictions.has(c.jurisdiction[i]!)) continue;
    if (types && !types.has(c.type[i]!)) continue;
    if (severities && !severities.has(c.severity[i]!)) continue;
    if (c.updatedMs[i]! < since) continue;
    const status = statusAt(c, i, nowMs);
    if (statuses && !statuses.has(status)) continue;
    const event = c.events[i]!;
    const b = filter.bbox;
    const inside = b !== null && c.minLon[i]! >= b.minLon && c.maxLon[i]! <= b.maxLon && c.minLat[i]! >= b.minLat && c.maxLat[i]! <= b.maxLat;
    if (b && !inside && !geometryTouchesBBox(event.geometry, b)) continue;
    if (filter.near && pointGeometryMetres(filter.near.lng, filter.near.lat, event.geometry) > filter.near.radius) continue;
    selected.push({ event, status: STATUS_CODES[status]! });
    if (selected.length >= filter.limit) break;
  }
  return selected;
}
