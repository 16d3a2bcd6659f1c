import { eventStatusSpan } from './event-status.ts';
import type { RoadGeometry } from './geometry.ts';
import { ROAD_EVENT_JURISDICTIONS } from './jurisdictions.ts';
import { EVENT_STATUSES, EVENT_TYPES, SEVERITIES, SEVERITY_RANK, type EventStatus, type EventType, type PublisherStatus, type Severity } from './mapping.ts';
import type { Schedule } from './schedule.ts';
import { EventGrid } from './event-grid.ts';
import type { FeedState } from './freshness.ts';
import type { BBox } from '../../lib/geo/bbox.ts';

/** One stored event, ready to write out. */
export interface CachedEvent {
  id: string;
  jurisdiction: string;
  type: EventType;
  severity: Severity;
  publisherStatus: PublisherStatus;
  schedule: Schedule;
  closed: boolean;
  hasSurface: boolean;
  sourceUpdatedMs: number;
  bbox: BBox;
  geometry: RoadGeometry;
  /** The stored record's JSON without its closing brace, as UTF-8 bytes made once at load: status is appended per request. */
  jsonHead: Buffer;
}

/**
 * The events in answer order (most severe first by the severity served, then most recently
 * updated, then id), with the fields filters read laid out in typed arrays (index i = events[i]):
 * a scan of thousands of events then touches a few contiguous arrays instead of thousands of objects.
 */
export interface EventColumns {
  events: CachedEvent[];
  jurisdiction: Uint8Array;
  type: Uint8Array;
  severity: Uint8Array;
  closed: Uint8Array;
  surface: Uint8Array;
  /** Status (index in EVENT_STATUSES) at some instant, valid over [statusFrom, statusUntil): recomputed when the clock leaves it. */
  status: Uint8Array;
  statusFrom: Float64Array;
  statusUntil: Float64Array;
  updatedMs: Float64Array;
  minLon: Float64Array;
  minLat: Float64Array;
  maxLon: Float64Array;
  maxLat: Float64Array;
  /** The same boxes on a grid, for bbox and near queries. */
  grid: EventGrid;
}

export interface RoadEventsView {
  columns: EventColumns;
  feeds: Map<string, FeedState>;
}

/** Codes of the columns: index in these lists. */
export const JURISDICTION_CODES: readonly string[] = ROAD_EVENT_JURISDICTIONS;
export const TYPE_CODES: readonly string[] = EVENT_TYPES;
export const SEVERITY_CODES: readonly string[] = SEVERITIES;
export const STATUS_CODES: readonly EventStatus[] = EVENT_STATUSES;

/** Event i's status at `nowMs` (event-status.ts), from the columns while the clock stays in its span. */
export function statusAt(c: EventColumns, i: number, nowMs: number): number {
  if (nowMs < c.statusFrom[i]! || nowMs >= c.statusUntil[i]!) {
    const e = c.events[i]!;
    const span = eventStatusSpan(e.publisherStatus, e.schedule, nowMs);
    c.status[i] = STATUS_CODES.indexOf(span.status);
    c.statusFrom[i] = span.fromMs;
    c.statusUntil[i] = span.untilMs;
  }
  return c.status[i]!;
}

function answerOrder(a: CachedEvent, b: CachedEvent): number {
  return SEVERITY_RANK[b.severity] - SEVERITY_RANK[a.severity] || b.sourceUpdatedMs - a.sourceUpdatedMs || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

/** The columns of a set of events, in answer order. */
export function eventColumns(unordered: CachedEvent[]): EventColumns {
  const events = [...unordered].sort(answerOrder);
  const n = events.length;
  const c: Omit<EventColumns, 'grid'> = {
    events,
    jurisdiction: new Uint8Array(n), type: new Uint8Array(n), severity: new Uint8Array(n),
    closed: new Uint8Array(n), surface: new Uint8Array(n),
    // An empty span: the first request computes each status.
    status: new Uint8Array(n), statusFrom: new Float64Array(n).fill(Infinity), statusUntil: new Float64Array(n).fill(-Infinity),
    updatedMs: new Float64Array(n),
    minLon: new Float64Array(n), minLat: new Float64Array(n), maxLon: new Float64Array(n), maxLat: new Float64Array(n),
  };
  events.forEach((e, i) => {
    c.jurisdiction[i] = JURISDICTION_CODES.indexOf(e.jurisdiction);
    c.type[i] = TYPE_CODES.indexOf(e.type);
    c.severity[i] = SEVERITY_CODES.indexOf(e.severity);
    c.closed[i] = e.closed ? 1 : 0;
    c.surface[i] = e.hasSurface ? 1 : 0;
    c.updatedMs[i] = e.sourceUpdatedMs;
    c.minLon[i] = e.bbox.minLon;
    c.minLat[i] = e.bbox.minLat;
    c.maxLon[i] = e.bbox.maxLon;
    c.maxLat[i] = e.bbox.maxLat;
  });
  return { ...c, grid: new EventGrid(c) };
}
