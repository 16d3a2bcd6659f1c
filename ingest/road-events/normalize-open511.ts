import type { RoadEvent, RoadEventRoad } from '../../schemas/road-events-api.ts';
import { geometryBBox, readGeometry, type RoadGeometry } from '../../engines/road-events/geometry.ts';
import type { JurisdictionInfo } from '../../engines/road-events/jurisdictions.ts';
import {
  DIRECTION_BY_DIRECTION, LANE_STATE_BY_STATE, lookup, mostRestrictive, PUBLISHER_STATUS, SEVERITY_BY_SEVERITY,
  SURFACE_BY_SUBTYPE, TOKEN, TYPE_BY_EVENT_TYPE,
  type Condition, type EventType, type LaneState, type PublisherStatus, type Severity, type Surface,
} from '../../engines/road-events/mapping.ts';
import { isoInZone, isValidZone, parsePublisherTime, type PublisherTime } from '../../engines/road-events/publisher-time.ts';
import { readSchedule, scheduleBounds, type Schedule } from '../../engines/road-events/schedule.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

/** One Open511 event in volume 2 terms, plus what storage and filtering need. */
export interface NormalizedEvent {
  jurisdiction: string;
  id: string;
  sourceId: string;
  type: EventType;
  severity: Severity;
  condition: Condition;
  description: string;
  roads: RoadEventRoad[];
  geometry: RoadGeometry;
  startsAt: PublisherTime | null;
  endsAt: PublisherTime | null;
  sourceUpdatedAt: PublisherTime;
  source: string;
  publisherStatus: PublisherStatus;
  /** Some road's state is CLOSED. */
  closed: boolean;
  /** The surface an event subtype states, if any. */
  surface: Surface | null;
  bbox: BBox;
  schedule: Schedule;
}

export interface DroppedEvent {
  /** Position in the poll's answer (across pages). */
  index: number;
  sourceId: string | null;
  reason: string;
}

export type NormalizedOrDropped = { ok: true; event: NormalizedEvent } | { ok: false; dropped: DroppedEvent };

export const roadEventId = (jurisdiction: string, sourceId: string) => `svc:road:${jurisdiction.toLowerCase()}:${encodeURIComponent(sourceId)}`;

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** A token-valued field: the mapped value, unknown for an unmapped token, an error for a non-token. */
function token<T extends string>(raw: Record<string, unknown>, field: string, table: Record<string, T>): { value: T | 'unknown' } | { error: string } {
  const value = raw[field];
  if (typeof value !== 'string' || !TOKEN.test(value)) {
    return { error: `${field} is ${value === undefined ? 'missing' : `not an Open511 value: ${JSON.stringify(value).slice(0, 80)}`}` };
  }
  return { value: lookup(table, value) };
}

function laneState(value: unknown): LaneState | null {
  return typeof value === 'string' && Object.hasOwn(LANE_STATE_BY_STATE, value) ? LANE_STATE_BY_STATE[value as keyof typeof LANE_STATE_BY_STATE] : null;
}

function firstSurface(subtypes: unknown): Surface | null {
  if (!Array.isArray(subtypes)) return null;
  for (const s of subtypes) if (typeof s === 'string' && Object.hasOwn(SURFACE_BY_SUBTYPE, s)) return SURFACE_BY_SUBTYPE[s as keyof typeof SURFACE_BY_SUBTYPE];
  return null;
}

/**
 * An Open511 event (DriveBC JSON) → the volume 2 record, or why it was dropped. Invalid means
 * unusable: no id, no readable update time or geography, a status other than ACTIVE/ARCHIVED,
 * or an event_type/severity that is not an Open511 token at all. A token without a mapping is
 * not invalid: it becomes unknown.
 */
export function normalizeOpen511Event(raw: unknown, index: number, info: JurisdictionInfo): NormalizedOrDropped {
  const drop = (reason: string, sourceId: string | null = null): NormalizedOrDropped => ({ ok: false, dropped: { index, sourceId, reason } });
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return drop('event is not a JSON object');
  const e = raw as Record<string, unknown>;
  const sourceId = typeof e.id === 'string' ? e.id.trim() : '';
  if (!sourceId) return drop('id is missing');
  const fail = (reason: string) => drop(reason, sourceId);

  const status = e.status;
  if (status !== 'ACTIVE' && status !== 'ARCHIVED') return fail(`status must be ACTIVE or ARCHIVED, got ${JSON.stringify(status ?? null)}`);
  const type = token(e, 'event_type', TYPE_BY_EVENT_TYPE);
  if ('error' in type) return fail(type.error);
  const severity = token(e, 'severity', SEVERITY_BY_SEVERITY);
  if ('error' in severity) return fail(severity.error);
  const zone = isValidZone(e.timezone) ? e.timezone : info.timeZone;
  const updated = parsePublisherTime(e.updated, zone);
  if (!updated) return fail(`updated is not an ISO 8601 date-time: ${JSON.stringify(e.updated ?? null)}`);
  const geography = readGeometry(e.geography);
  if (!geography.ok) return fail(geography.reason);
  const schedule = readSchedule(e.schedule, zone);
  if (!schedule.ok) return fail(schedule.reason);

  const surface = firstSurface(e.event_subtypes);
  const states: LaneState[] = [];
  const roads: RoadEventRoad[] = [];
  for (const road of Array.isArray(e.roads) ? e.roads : []) {
    if (!road || typeof road !== 'object') continue;
    const r = road as Record<string, unknown>;
    const state = laneState(r.state);
    if (state) states.push(state);
    roads.push({
      name: text(r.name) ?? '',
      direction: typeof r.direction === 'string' ? lookup(DIRECTION_BY_DIRECTION, r.direction) : 'unknown',
      closed: state === 'closed',
      from: text(r.from),
      to: text(r.to),
      condition: state ?? surface ?? 'unknown',
    });
  }
  const closed = states.includes('closed');
  const { startMs, endMs } = scheduleBounds(schedule.schedule);
  return {
    ok: true,
    event: {
      jurisdiction: info.code,
      id: roadEventId(info.code, sourceId),
      sourceId,
      type: type.value,
      severity: severity.value,
      condition: closed ? 'closed' : surface ?? mostRestrictive(states) ?? 'unknown',
      description: text(e.description) ?? '',
      roads,
      geometry: geography.geometry,
      startsAt: startMs === null ? null : { iso: isoInZone(startMs, zone), ms: startMs },
      endsAt: endMs === null ? null : { iso: isoInZone(endMs, zone), ms: endMs },
      sourceUpdatedAt: updated,
      source: info.source,
      publisherStatus: PUBLISHER_STATUS[status],
      closed,
      surface,
      bbox: geometryBBox(geography.geometry),
      schedule: schedule.schedule,
    },
  };
}

/** The record as served, minus status (computed per request from publisherStatus and the schedule: event-status.ts). */
export type StoredRecord = Omit<RoadEvent, 'status'>;

export function toRecord(event: NormalizedEvent, svcUpdatedAt: string): StoredRecord {
  return {
    id: event.id,
    source_id: event.sourceId,
    jurisdiction: event.jurisdiction,
    type: event.type,
    severity: event.severity,
    condition: event.condition,
    description: event.description,
    roads: event.roads,
    geometry: event.geometry,
    starts_at: event.startsAt?.iso ?? null,
    ends_at: event.endsAt?.iso ?? null,
    source_updated_at: event.sourceUpdatedAt.iso,
    svc_updated_at: svcUpdatedAt,
    source: event.source,
  };
}
