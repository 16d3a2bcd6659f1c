import { describe, expect, it } from 'vitest';
import { EventGrid } from '../../engines/road-events/event-grid.ts';
import { closureFrom511 } from '../../ingest/road-events/closures/from-511.ts';
import { closureFromOpen511 } from '../../ingest/road-events/closures/from-open511.ts';
import { eventStatus, eventStatusSpan } from '../../engines/road-events/event-status.ts';
import { decodePolyline, geometryBBox, geometryTouchesBBox, pointGeometryMetres, readGeometry, type LngLatPosition } from '../../engines/road-events/geometry.ts';
import { routeGeometryMetres } from '../../engines/road-events/route-line.ts';
import { retryAfterMs } from '../../ingest/road-events/http-json.ts';
import { JURISDICTIONS } from '../../engines/road-events/jurisdictions.ts';
import { normalizeOpen511Event, toRecord, type NormalizedEvent } from '../../ingest/road-events/normalize-open511.ts';
import { parsePublisherTime } from '../../engines/road-events/publisher-time.ts';
import { readSchedule, scheduleBounds, scheduleFromJson, scheduleToJson, scheduleWindows } from '../../engines/road-events/schedule.ts';
import { drivebc, fixture } from '../support/road-events-upstream.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

const BC = JURISDICTIONS['CA-BC'];
const eventsOf = (text: string) => (JSON.parse(text) as { events: unknown[] }).events;

function normalizeAll(text: string) {
  const results = eventsOf(text).map((e, i) => normalizeOpen511Event(e, i, BC));
  const events = new Map<string, NormalizedEvent>();
  const dropped = [];
  for (const r of results) {
    if (r.ok) events.set(r.event.sourceId, r.event);
    else dropped.push(r.dropped);
  }
  return { events, dropped };
}

const record = (e: NormalizedEvent) => toRecord(e, '2026-01-10T16:00:00Z');

describe('publisher times', () => {
  it('keeps a stated offset and reads a time without one as America/Vancouver with current zone data', () => {
    expect(parsePublisherTime('2023-06-25T14:42:45-07:00', BC.timeZone)).toEqual({ iso: '2023-06-25T14:42:45-07:00', ms: Date.parse('2023-06-25T21:42:45Z') });
    expect(parsePublisherTime('2023-06-25T21:42:45Z', BC.timeZone)?.iso).toBe('2023-06-25T21:42:45+00:00');
    // BC stays on UTC−7 after 2026-03-08 (IANA 2026); Node 20's Intl would say −08:00 in November.
    expect(parsePublisherTime('2026-11-15T08:00', BC.timeZone)).toEqual({ iso: '2026-11-15T08:00:00-07:00', ms: Date.parse('2026-11-15T15:00:00Z') });
    expect(parsePublisherTime('2025-11-15T08:00:00', BC.timeZone)?.iso).toBe('2025-11-15T08:00:00-08:00');
    expect(parsePublisherTime('2026-01-08T12:00:00', 'America/Edmonton')?.iso).toBe('2026-01-08T12:00:00-07:00');
    for (const bad of ['', 'yesterday', '2026-02-30T10:00:00-07:00', '2026-13-01T10:00', '2026-01-10T25:00Z', '2026-01-10T16:00:00.Z', 1_700_000_000, null]) {
      expect(parsePublisherTime(bad, BC.timeZone), String(bad)).toBeNull();
    }
  });

  it('reads the other valid ISO 8601 spellings: lower-case z and t, 1–9 fraction digits, a space separator', () => {
    const utc = { iso: '2026-01-10T16:00:00+00:00', ms: Date.parse('2026-01-10T16:00:00Z') };
    expect(parsePublisherTime('2026-01-10T16:00:00z', BC.timeZone)).toEqual(utc);
    expect(parsePublisherTime('2026-01-10t16:00z', BC.timeZone)).toEqual(utc);
    expect(parsePublisherTime('2026-01-10T16:00:00.5Z', BC.timeZone)).toEqual({ ...utc, ms: utc.ms + 500 });
    expect(parsePublisherTime('2026-01-10T16:00:00.25z', BC.timeZone)).toEqual({ ...utc, ms: utc.ms + 250 });
    expect(parsePublisherTime('2026-01-10 16:00:00.5Z', BC.timeZone)).toEqual({ ...utc, ms: utc.ms + 500 });
    expect(parsePublisherTime('2026-01-10T09:00:00.123456789-07:00', BC.timeZone)).toEqual({ iso: '2026-01-10T09:00:00-07:00', ms: utc.ms + 123 });
    // Without an offset: local time, with the same spellings.
    expect(parsePublisherTime('2025-11-15 08:00:00.5', BC.timeZone)).toEqual({ iso: '2025-11-15T08:00:00-08:00', ms: Date.parse('2025-11-15T16:00:00.500Z') });
    expect(parsePublisherTime('2025-11-15t08:00:00.25', BC.timeZone)?.ms).toBe(Date.parse('2025-11-15T16:00:00.250Z'));
  });
});

describe('Retry-After', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2026-01-10T16:00:00Z');
    expect(retryAfterMs('120', now)).toBe(120_000);
    expect(retryAfterMs('Sat, 10 Jan 2026 16:02:30 GMT', now)).toBe(150_000);
    expect(retryAfterMs('Sat, 10 Jan 2026 15:59:00 GMT', now)).toBe(0); // already past: no wait
    expect(retryAfterMs('soon', now)).toBeNull();
    expect(retryAfterMs(null, now)).toBeNull();
  });
});

describe('real DriveBC events → volume 2 records', () => {
  it('normalizes the four-event answer field by field', () => {
    const { events, dropped } = normalizeAll(drivebc('four'));
    expect(dropped).toEqual([]);
    expect([...events.keys()]).toEqual(['drivebc.ca/DBC-46014', 'drivebc.ca/DBC-53145', 'drivebc.ca/DBC-52791', 'drivebc.ca/DBC-52446']);
    const raw = eventsOf(drivebc('four'))[0] as { description: string; geography: { coordinates: LngLatPosition[] } };
    expect(record(events.get('drivebc.ca/DBC-46014')!)).toEqual({
      id: 'svc:road:ca-bc:drivebc.ca%2FDBC-46014',
      source_id: 'drivebc.ca/DBC-46014',
      jurisdiction: 'CA-BC',
      type: 'construction',
      severity: 'minor',
      condition: 'unknown', // ROAD_MAINTENANCE states no surface and no road state is given: never "dry"
      description: raw.description,
      roads: [{ name: 'Highway 14', direction: 'both', closed: false, from: 'Ludlow Rd', to: 'Kangaroo Rd', condition: 'unknown' }],
      geometry: { type: 'LineString', coordinates: raw.geography.coordinates },
      starts_at: '2022-10-21T08:01:00-07:00',
      ends_at: null,
      source_updated_at: '2023-06-25T14:42:45-07:00',
      svc_updated_at: '2026-01-10T16:00:00Z',
      source: 'DriveBC Open511 events',
    });
    const hwy3 = events.get('drivebc.ca/DBC-52446')!;
    expect(record(hwy3)).toMatchObject({ severity: 'major', starts_at: '2023-05-23T07:00:00-07:00', ends_at: '2023-07-22T07:00:00-07:00' });
    expect(hwy3.roads).toEqual([{ name: 'Highway 3', direction: 'none', closed: false, from: 'Bromley Pl', to: 'Frontage Rd', condition: 'unknown' }]);
    // Intervals and a recurring schedule at once (DriveBC sends both): the recurring windows, clipped to the intervals, are the schedule.
    expect(record(events.get('drivebc.ca/DBC-53145')!)).toMatchObject({ starts_at: '2023-06-05T09:00:00-07:00', ends_at: '2023-07-28T15:00:00-07:00' });
    for (const e of events.values()) expect(e.closed).toBe(false); // construction never implies a closure
  });

  it('sees the update of four_updated: new from-road and publisher time', () => {
    const before = normalizeAll(drivebc('four')).events;
    const after = normalizeAll(drivebc('four_updated')).events;
    expect(after.get('drivebc.ca/DBC-53145')!.roads[0]!.from).toBe('Updated Trail');
    expect(after.get('drivebc.ca/DBC-53145')!.sourceUpdatedAt.iso).toBe('2023-07-25T14:42:51-07:00');
    expect(before.get('drivebc.ca/DBC-53145')!.sourceUpdatedAt.iso).toBe('2023-06-25T14:42:51-07:00');
    expect(after.get('drivebc.ca/DBC-46014')!.roads[0]!.from).toBe('Updated Rd');
    expect(record(after.get('drivebc.ca/DBC-52791')!)).toEqual(record(before.get('drivebc.ca/DBC-52791')!));
  });

  it('DBC-53145 (an open interval and a daily 09:00–15:00 recurring schedule) marked CLOSED is in force only in its daily windows', () => {
    const raw = eventsOf(drivebc('four')).find((e) => (e as { id: string }).id === 'drivebc.ca/DBC-53145') as { roads: Record<string, unknown>[] };
    raw.roads[0]!.state = 'CLOSED';
    const normalized = normalizeOpen511Event(raw, 1, BC);
    if (!normalized.ok) throw new Error(normalized.dropped.reason);
    const e = normalized.event;
    const at = (local: string) => parsePublisherTime(local, BC.timeZone)!.ms; // PDT, UTC−7
    const wednesday10 = at('2023-06-14T10:00'), wednesday22 = at('2023-06-14T22:00');
    expect(eventStatus(e.publisherStatus, e.schedule, wednesday10)).toBe('active');
    expect(eventStatus(e.publisherStatus, e.schedule, wednesday22)).toBe('planned'); // not in force at night, though the interval is open
    expect(eventStatus(e.publisherStatus, e.schedule, at('2023-06-05T08:59'))).toBe('planned');
    expect(eventStatus(e.publisherStatus, e.schedule, at('2023-07-28T14:59'))).toBe('active'); // the last day
    expect(eventStatus(e.publisherStatus, e.schedule, at('2023-07-28T15:00'))).toBe('archived'); // the recurring schedule has ended
    // The status holds until the window closes, and at night until the next one opens.
    expect(eventStatusSpan(e.publisherStatus, e.schedule, wednesday10)).toEqual({ status: 'active', fromMs: at('2023-06-14T09:00'), untilMs: at('2023-06-14T15:00') });
    expect(eventStatusSpan(e.publisherStatus, e.schedule, wednesday22)).toEqual({ status: 'planned', fromMs: at('2023-06-14T15:00'), untilMs: at('2023-06-15T09:00') });
    // Its closure windows are the daily ones, not the all-day open interval.
    const closure = closureFromOpen511(e, wednesday22)!;
    expect(closure.windows.slice(0, 2)).toEqual([[at('2023-06-15T09:00'), at('2023-06-15T15:00')], [at('2023-06-16T09:00'), at('2023-06-16T15:00')]]);
    expect(closure.windows.some(([start, end]) => start! <= wednesday22 && wednesday22 < end!)).toBe(false);
    expect(closureFromOpen511(e, at('2023-07-29T10:00'))).toBeNull(); // ended: nothing to store
  });

  it('clips recurring windows to the intervals\' span', () => {
    const zone = BC.timeZone;
    const read = readSchedule({
      intervals: ['2026-01-14T12:00/2026-01-16T10:00'],
      recurring_schedules: [{ start_date: '2026-01-12', end_date: '2026-01-20', daily_start_time: '09:00', daily_end_time: '15:00' }],
    }, zone);
    if (!read.ok) throw new Error(read.reason);
    const at = (local: string) => parsePublisherTime(local, zone)!.ms;
    expect(scheduleWindows(read.schedule, at('2026-01-10T00:00'), at('2026-01-25T00:00'))).toEqual([
      [at('2026-01-14T12:00'), at('2026-01-14T15:00')],
      [at('2026-01-15T09:00'), at('2026-01-15T15:00')],
      [at('2026-01-16T09:00'), at('2026-01-16T10:00')],
    ]);
    expect(scheduleBounds(read.schedule)).toEqual({ startMs: at('2026-01-14T12:00'), endMs: at('2026-01-16T10:00') });
    // Stored as JSON and read back, the schedule answers the same.
    const back = scheduleFromJson(JSON.parse(JSON.stringify(scheduleToJson(read.schedule))));
    expect(scheduleWindows(back, at('2026-01-10T00:00'), at('2026-01-25T00:00'))).toEqual(scheduleWindows(read.schedule, at('2026-01-10T00:00'), at('2026-01-25T00:00')));
  });

  it('drops the invalid event of five_with_validation_error and keeps the other four', () => {
    const { events, dropped } = normalizeAll(drivebc('five_with_validation_error'));
    expect(dropped).toEqual([{ index: 1, sourceId: null, reason: 'id is missing' }]);
    expect([...events.keys()]).toEqual(['drivebc.ca/DBC-28386', 'drivebc.ca/DBC-53145', 'drivebc.ca/DBC-52791', 'drivebc.ca/DBC-52446']);
    const raw = eventsOf(drivebc('five_with_validation_error'))[0] as { geography: unknown };
    expect(raw.geography).toEqual({ type: 'Point', coordinates: [-122.479074, 53.155476] });
    expect(record(events.get('drivebc.ca/DBC-28386')!)).toMatchObject({
      type: 'incident', severity: 'major', condition: 'unknown',
      geometry: raw.geography,
      roads: [{ name: 'Other Roads', direction: 'both', closed: false, from: 'at Cottonwood bridge', to: null, condition: 'unknown' }],
    });
  });

  it('refuses an event_type that is not an Open511 token (the sentence of the invalid sample)', () => {
    const raw = eventsOf(drivebc('five_with_validation_error'))[1] as Record<string, unknown>;
    const result = normalizeOpen511Event({ ...raw, id: 'drivebc.ca/DBC-46014' }, 1, BC);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.dropped.reason).toMatch(/^event_type is not an Open511 value: "Highway 14, in both directions/);
  });
});

describe('Open511 cases the samples lack (fixtures from the spec)', () => {
  const { events, dropped } = normalizeAll(fixture('open511-spec-cases.json'));
  const get = (id: string) => record(events.get(`drivebc.ca/${id}`)!);

  it('a road state CLOSED is a closure; the event becomes condition closed', () => {
    expect(get('SPEC-CLOSED')).toMatchObject({ type: 'incident', severity: 'major', condition: 'closed' });
    expect(get('SPEC-CLOSED').roads).toEqual([{ name: 'Highway 1', direction: 'both', closed: true, from: 'Rogers Pass Summit', to: 'Glacier Park Lodge', condition: 'closed' }]);
    expect(events.get('drivebc.ca/SPEC-CLOSED')!.closed).toBe(true);
  });

  it('lane states other than CLOSED are not closures; MODERATE and UNKNOWN severities are unknown', () => {
    expect(get('SPEC-LANES')).toMatchObject({ type: 'construction', severity: 'unknown', condition: 'some_lanes_closed' });
    expect(get('SPEC-LANES').roads[0]).toMatchObject({ direction: 'n', closed: false, condition: 'some_lanes_closed' });
    expect(get('SPEC-OPEN-LANES')).toMatchObject({ severity: 'unknown', condition: 'all_lanes_open' });
    for (const id of ['SPEC-LANES', 'SPEC-OPEN-LANES', 'SPEC-SNOW-ALT']) expect(events.get(`drivebc.ca/${id}`)!.closed, id).toBe(false);
  });

  it('surface subtypes give the condition; ROAD_CONDITION has no volume 2 type; POOR_VISIBILITY is no surface', () => {
    expect(get('SPEC-ICE')).toMatchObject({ type: 'unknown', condition: 'ice_covered' });
    expect(get('SPEC-ICE').roads[0]).toMatchObject({ condition: 'ice_covered', closed: false });
    expect(get('SPEC-SNOW-ALT')).toMatchObject({ condition: 'partly_snow_packed' });
    expect(get('SPEC-SNOW-ALT').roads[0]).toMatchObject({ condition: 'single_lane_alternating' });
    expect(get('SPEC-FOG')).toMatchObject({ type: 'weather', condition: 'unknown' });
    expect(events.get('drivebc.ca/SPEC-FOG')!.surface).toBeNull();
  });

  it('unmapped tokens become unknown rather than guesses', () => {
    expect(get('SPEC-UNMAPPED')).toMatchObject({ type: 'unknown', severity: 'unknown' });
    expect(get('SPEC-UNMAPPED').roads[0]).toMatchObject({ direction: 'unknown', condition: 'unknown' });
  });

  it('times without offset, an event timezone, a future schedule and ARCHIVED', () => {
    const planned = events.get('drivebc.ca/SPEC-PLANNED')!;
    expect(record(planned)).toMatchObject({
      source_updated_at: '2026-11-15T08:00:00-07:00',
      starts_at: '2030-06-01T09:00:00-07:00',
      ends_at: '2030-06-30T17:00:00-07:00',
    });
    const now = Date.parse('2026-01-10T16:00:00Z');
    expect(eventStatus(planned.publisherStatus, planned.schedule, now)).toBe('planned');
    expect(eventStatus(planned.publisherStatus, planned.schedule, Date.parse('2030-06-01T16:00:00Z'))).toBe('active');
    expect(eventStatus(planned.publisherStatus, planned.schedule, Date.parse('2030-07-01T00:00:00Z'))).toBe('archived'); // its interval has ended
    const archived = events.get('drivebc.ca/SPEC-ARCHIVED')!;
    expect(archived.sourceUpdatedAt.iso).toBe('2026-01-01T02:30:00-08:00');
    expect(eventStatus(archived.publisherStatus, archived.schedule, Date.parse('2026-01-01T05:00:00Z'))).toBe('archived'); // as published, even in its interval
    const open = events.get('drivebc.ca/SPEC-CLOSED')!; // open-ended interval
    expect(eventStatusSpan(open.publisherStatus, open.schedule, now)).toEqual({ status: 'active', fromMs: Date.parse('2026-01-10T13:00:00Z'), untilMs: Infinity });
    expect(get('SPEC-NIGHTLY')).toMatchObject({
      source_updated_at: '2026-01-08T12:00:00-07:00', // America/Edmonton, from the event's timezone
      starts_at: '2026-01-12T21:00:00-07:00',
      ends_at: '2026-01-30T05:00:00-07:00',
    });
  });

  it('drops a status outside the enumeration, with the reason; keeps a Polygon geography', () => {
    expect(dropped.map((d) => [d.sourceId, d.reason])).toEqual([['drivebc.ca/SPEC-BAD-STATUS', 'status must be ACTIVE or ARCHIVED, got "OPEN"']]);
    const polygon = events.get('drivebc.ca/SPEC-POLYGON')!;
    expect(polygon.geometry).toEqual({ type: 'Polygon', coordinates: [[[-120.5, 50.5], [-120.4, 50.5], [-120.4, 50.6], [-120.5, 50.5]]] });
    expect(polygon.bbox).toEqual({ minLon: -120.5, minLat: 50.5, maxLon: -120.4, maxLat: 50.6 });
  });

  it('expands a recurring overnight schedule with its exceptions into closure windows', () => {
    const nightly = events.get('drivebc.ca/SPEC-NIGHTLY')!;
    const from = Date.parse('2026-01-12T00:00:00Z');
    const windows = scheduleWindows(nightly.schedule, from, Date.parse('2026-01-23T00:00:00Z')).map(([s, e]) => [new Date(s!).toISOString(), new Date(e!).toISOString()]);
    expect(windows).toEqual([
      ['2026-01-13T04:00:00.000Z', '2026-01-13T12:00:00.000Z'], // Mon 21:00 → Tue 05:00 MST
      ['2026-01-14T04:00:00.000Z', '2026-01-14T12:00:00.000Z'], // Tue
      ['2026-01-15T04:00:00.000Z', '2026-01-15T12:00:00.000Z'], // Wed; Thu 15th is an exception day
      ['2026-01-20T04:00:00.000Z', '2026-01-20T12:00:00.000Z'], // Mon 19th
      ['2026-01-21T06:00:00.000Z', '2026-01-21T11:00:00.000Z'], // Tue 20th: 23:00 → 04:00 instead
      ['2026-01-22T04:00:00.000Z', '2026-01-22T12:00:00.000Z'], // Wed 21st
    ]);
    const closure = closureFromOpen511(nightly, from)!;
    expect(closure).toMatchObject({ sourceId: 'drivebc.ca/SPEC-NIGHTLY', road: 'Highway 1', direction: 'both' });
    expect(closure.windows[0]).toEqual([Date.parse('2026-01-13T04:00:00Z'), Date.parse('2026-01-13T12:00:00Z')]);
    expect(closureFromOpen511(events.get('drivebc.ca/SPEC-LANES')!, from)).toBeNull();
    expect(closureFromOpen511(events.get('drivebc.ca/SPEC-PLANNED')!, from)).toBeNull(); // beyond the 30-day horizon
  });

  it('a schedule that is present but unreadable drops the event', () => {
    expect(readSchedule({ intervals: ['soon/later'] }, BC.timeZone)).toEqual({ ok: false, reason: 'schedule has no readable interval or recurring schedule' });
  });
});

describe('511 v2 events (Alberta, Ontario fixtures)', () => {
  const ab = JSON.parse(fixture('alberta-511-events.json')) as unknown[];
  const on = JSON.parse(fixture('ontario-511-events.json')) as unknown[];

  it('only IsFullClosure true is a closure; EventType "closures" alone is not', () => {
    const kinds = ab.map((e, i) => closureFrom511(e, i, JURISDICTIONS['CA-AB']).kind);
    expect(kinds).toEqual(['closure', 'closure', 'open', 'open', 'invalid']);
    const first = closureFrom511(ab[0], 0, JURISDICTIONS['CA-AB']);
    expect(first.kind === 'closure' && first.closure).toMatchObject({
      sourceId: '45122', road: 'Highway 1', direction: 'Both Directions',
      windows: [[Date.parse('2026-01-10T14:20:00Z'), null]],
      sourceUpdatedAt: '2026-01-10T15:05:00Z',
      geometry: { type: 'LineString' },
    });
    const icefields = closureFrom511(ab[1], 1, JURISDICTIONS['CA-AB']);
    expect(icefields.kind === 'closure' && icefields.closure).toMatchObject({
      geometry: { type: 'Point', coordinates: [-117.1705, 52.188] },
      windows: [[Date.parse('2026-01-12T15:00:00Z'), Date.parse('2026-01-12T23:00:00Z')]],
    });
    const invalid = closureFrom511(ab[4], 4, JURISDICTIONS['CA-AB']);
    expect(invalid).toEqual({ kind: 'invalid', dropped: { index: 4, sourceId: '45150', reason: 'no EncodedPolyline and no valid Latitude/Longitude' } });
  });

  it('decodes EncodedPolyline and falls back to the two end points', () => {
    const hwy401 = closureFrom511(on[0], 0, JURISDICTIONS['CA-ON']);
    expect(hwy401.kind === 'closure' && hwy401.closure.geometry).toEqual({
      type: 'LineString', coordinates: [[-79.5365, 43.7179], [-79.5193, 43.7226], [-79.5002, 43.7276], [-79.482, 43.7315]],
    });
    const hwy11 = closureFrom511(on[1], 1, JURISDICTIONS['CA-ON']);
    expect(hwy11.kind === 'closure' && hwy11.closure).toMatchObject({
      sourceId: 'ONT-MTO-60240',
      geometry: { type: 'MultiPoint', coordinates: [[-82.4322, 49.4138], [-83.6664, 49.6904]] },
      windows: [[Date.parse('2026-01-10T13:40:00Z'), null]], // PlannedEndDate 0: open-ended
    });
    expect(closureFrom511(on[2], 2, JURISDICTIONS['CA-ON']).kind).toBe('open');
    expect(decodePolyline('_p~iF~ps|U_ulLnnqC_mqNvxq`@')).toEqual([[-120.2, 38.5], [-120.95, 40.7], [-126.453, 43.252]]); // Google's documented example
    expect(decodePolyline('?')).toBeNull();
  });
});

describe('areas (Polygon, MultiPolygon)', () => {
  const square = { type: 'Polygon' as const, coordinates: [[[-121, 50], [-120, 50], [-120, 51], [-121, 51], [-121, 50]], [[-120.6, 50.4], [-120.4, 50.4], [-120.4, 50.6], [-120.6, 50.6], [-120.6, 50.4]]] as LngLatPosition[][] };

  it('reads them when every ring is closed, with 4 or more positions', () => {
    expect(readGeometry(square)).toEqual({ ok: true, geometry: square });
    const multi = { type: 'MultiPolygon', coordinates: [square.coordinates, [[[-119, 49], [-118.5, 49], [-118.5, 49.5], [-119, 49]]]] };
    expect(readGeometry(multi).ok).toBe(true);
    expect(geometryBBox(multi as never)).toEqual({ minLon: -121, minLat: 49, maxLon: -118.5, maxLat: 51 });
    expect(readGeometry({ type: 'Polygon', coordinates: [[[-121, 50], [-120, 50], [-120, 51]]] })).toEqual({ ok: false, reason: 'geography Polygon has a ring that is not 4 or more valid positions ending where it starts' });
    expect(readGeometry({ type: 'Polygon', coordinates: [[[-121, 50], [-120, 50], [-120, 51], [-121, 51]]] }).ok).toBe(false); // not closed
    expect(readGeometry({ type: 'GeometryCollection', geometries: [] })).toEqual({ ok: false, reason: 'geography type "GeometryCollection" is not supported (Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon)' });
  });

  it('measures to the ring edges; inside the area (outside its hole) is 0 m', () => {
    expect(pointGeometryMetres(-120.8, 50.5, square)).toBe(0);
    expect(pointGeometryMetres(-120.5, 50.5, square)).toBeCloseTo(haversineMetres(-120.5, 50.5, -120.4, 50.5), -1); // in the hole: 0.1° of longitude to its side
    expect(pointGeometryMetres(-120.5, 51.01, square)).toBeCloseTo(haversineMetres(-120.5, 51.01, -120.5, 51), 0);
    expect(routeGeometryMetres([[-120.9, 50.2], [-120.8, 50.3]], square, 250)).toBe(0); // wholly inside
    expect(routeGeometryMetres([[-121.5, 50.5], [-120.8, 50.5]], square, 250)).toBe(0); // entering
    expect(routeGeometryMetres([[-121.5, 50.5], [-121.2, 50.5]], square, 250)).toBe(Infinity);
    expect(geometryTouchesBBox(square, { minLon: -120.95, minLat: 50.1, maxLon: -120.9, maxLat: 50.2 })).toBe(true); // a box within the area
    expect(geometryTouchesBBox(square, { minLon: -120.55, minLat: 50.45, maxLon: -120.5, maxLat: 50.5 })).toBe(false); // a box within the hole
  });
});

describe('distances', () => {
  it('measures a point to a line by its nearest point, not its vertices', () => {
    const line: LngLatPosition[] = [[-123.0, 49.0], [-122.0, 49.0]];
    // 0.01° north of the middle of a 73 km segment: 1.11 km, far from either vertex.
    expect(pointGeometryMetres(-122.5, 49.01, { type: 'LineString', coordinates: line })).toBeCloseTo(haversineMetres(-122.5, 49.01, -122.5, 49.0), -1);
    expect(haversineMetres(-122.5, 49.01, -122.5, 49.0)).toBeCloseTo(1112, 0);
    expect(pointGeometryMetres(-121.9, 49.0, { type: 'LineString', coordinates: line })).toBeCloseTo(haversineMetres(-121.9, 49, -122, 49), 3);
  });

  it('finds a route passing 200 m from a closure point and ignores one 300 m away', () => {
    const route: LngLatPosition[] = [[-117.6, 51.3], [-117.4, 51.3]];
    const dLat = (m: number) => m / 111_195;
    expect(routeGeometryMetres(route, { type: 'Point', coordinates: [-117.5, 51.3 + dLat(200)] }, 250)).toBeCloseTo(200, -1);
    expect(routeGeometryMetres(route, { type: 'Point', coordinates: [-117.5, 51.3 + dLat(300)] }, 250)).toBe(Infinity);
    expect(routeGeometryMetres(route, { type: 'LineString', coordinates: [[-117.5, 51.2], [-117.5, 51.4]] }, 250)).toBe(0); // crossing
  });

  it('a line touches a box it crosses even with no vertex inside', () => {
    const line = { type: 'LineString' as const, coordinates: [[-124, 49.5], [-122, 49.5]] as LngLatPosition[] };
    expect(geometryTouchesBBox(line, { minLon: -123.1, minLat: 49.4, maxLon: -122.9, maxLat: 49.6 })).toBe(true);
    expect(geometryTouchesBBox(line, { minLon: -123.1, minLat: 49.6, maxLon: -122.9, maxLat: 49.7 })).toBe(false);
  });
});

describe('the API\'s event grid', () => {
  it('returns every event whose box meets the query box, once each, in ascending order', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const n = 1500;
    const boxes = { minLon: new Float64Array(n), minLat: new Float64Array(n), maxLon: new Float64Array(n), maxLat: new Float64Array(n) };
    for (let i = 0; i < n; i++) {
      const lon = -128 + random() * 14, lat = 48 + random() * 8;
      boxes.minLon[i] = lon;
      boxes.minLat[i] = lat;
      boxes.maxLon[i] = lon + (random() < 0.02 ? 20 * random() : random() * 0.5); // a few span the province
      boxes.maxLat[i] = lat + random() * 0.5;
    }
    const grid = new EventGrid(boxes);
    const all = Array.from({ length: n }, (_, i) => i);
    let scans = 0;
    for (let q = 0; q < 500; q++) {
      const lon = -131 + random() * 20, lat = 46 + random() * 12;
      const box = { minLon: lon, minLat: lat, maxLon: lon + random() * 4, maxLat: lat + random() * 2 };
      const expected: number[] = [];
      for (let i = 0; i < n; i++) {
        if (!(boxes.maxLon[i]! < box.minLon || boxes.minLon[i]! > box.maxLon || boxes.maxLat[i]! < box.minLat || boxes.minLat[i]! > box.maxLat)) expected.push(i);
      }
      const found = grid.candidates(box);
      if (found === null) scans++; // a large box: every event is read, in order
      const got = [...(found ?? all)];
      expect(got.filter((i) => expected.includes(i))).toEqual(expected);
      expect(got).toEqual([...new Set(got)].sort((a, b) => a - b));
    }
    expect(scans).toBeGreaterThan(0);
    expect(scans).toBeLessThan(250);
  });

  it('stays BC-sized when an event lies far away: that one is on the list every query reads', () => {
    const boxes = {
      minLon: Float64Array.from([-123.4, -179.9, -120]), minLat: Float64Array.from([48.4, -89.9, 49]),
      maxLon: Float64Array.from([-123.3, -179.8, -119.9]), maxLat: Float64Array.from([48.5, -89.8, 49.1]),
    };
    const grid = new EventGrid(boxes);
    expect(grid.cellCount).toBeLessThanOrEqual(106 * 52);
    expect(grid.cellCount).toBe(15 * 3); // the two BC events span 3.4° × 0.7°
    expect([...grid.candidates({ minLon: -123.5, minLat: 48.3, maxLon: -123.2, maxLat: 48.6 })!]).toEqual([0, 1]);
    expect([...grid.candidates({ minLon: -179.95, minLat: -89.95, maxLon: -179.7, maxLat: -89.7 })!]).toEqual([1]);
  });
});
