import { createHash } from 'node:crypto';
import type { PoolClient } from 'pg';
import { recordSuccess } from './feed-status.ts';
import { eventsFeed, type Jurisdiction } from '../../engines/road-events/jurisdictions.ts';
import { toRecord, type NormalizedEvent } from './normalize-open511.ts';
import { isoUtc } from '../../engines/road-events/publisher-time.ts';
import { scheduleToJson } from '../../engines/road-events/schedule.ts';

export interface SnapshotChange {
  added: string[];
  updated: string[];
  removed: string[];
  unchanged: number;
  stored: number;
}

const BATCH = 1000;

/** What makes an event "changed": its record without svc_updated_at, and what else is stored of it. */
function contentHash(event: NormalizedEvent, schedule: unknown): string {
  const { svc_updated_at: _, ...content } = toRecord(event, '');
  return createHash('sha256').update(JSON.stringify([content, event.publisherStatus, schedule])).digest('hex');
}

/**
 * Replaces a jurisdiction's stored events with `events` and records the success (with
 * last_change_at and generation moved only when something changed), inside the caller's
 * transaction on `client`. An event keeps its svc_updated_at until its content changes.
 */
export async function writeEventsSnapshot(
  client: PoolClient,
  jurisdiction: Jurisdiction,
  events: NormalizedEvent[],
  outcome: { at: Date; upstreamCount: number; note: string | null },
): Promise<SnapshotChange> {
  await client.query('SELECT pg_advisory_xact_lock(4242017, hashtext($1))', [`store:${eventsFeed(jurisdiction)}`]);
  const { rows } = await client.query<{ id: string; content_hash: string }>('SELECT id, content_hash FROM road_events WHERE jurisdiction = $1', [jurisdiction]);
  const before = new Map(rows.map((r) => [r.id, r.content_hash]));
  const svcUpdatedAt = isoUtc(outcome.at.getTime());
  const change: SnapshotChange = { added: [], updated: [], removed: [], unchanged: 0, stored: events.length };
  const writes: Record<string, unknown>[] = [];
  for (const event of events) {
    const schedule = scheduleToJson(event.schedule);
    const hash = contentHash(event, schedule);
    const previous = before.get(event.id);
    before.delete(event.id);
    if (previous === hash) {
      change.unchanged++;
      continue;
    }
    (previous === undefined ? change.added : change.updated).push(event.id);
    writes.push({
      id: event.id,
      source_id: event.sourceId,
      type: event.type,
      severity: event.severity,
      publisher_status: event.publisherStatus,
      starts_at: event.startsAt?.iso ?? null,
      ends_at: event.endsAt?.iso ?? null,
      schedule,
      closed: event.closed,
      surface: event.surface,
      source_updated_at: event.sourceUpdatedAt.iso,
      svc_updated_at: svcUpdatedAt,
      minlon: event.bbox.minLon,
      minlat: event.bbox.minLat,
      maxlon: event.bbox.maxLon,
      maxlat: event.bbox.maxLat,
      content_hash: hash,
      record: toRecord(event, svcUpdatedAt),
    });
  }
  change.removed = [...before.keys()];
  if (change.removed.length) {
    await client.query('DELETE FROM road_events WHERE jurisdiction = $1 AND id = ANY($2)', [jurisdiction, change.removed]);
  }
  for (let i = 0; i < writes.length; i += BATCH) {
    await client.query(
      `INSERT INTO road_events (jurisdiction, id, source_id, type, severity, publisher_status, starts_at, ends_at, schedule,
         closed, surface, source_updated_at, svc_updated_at, minlon, minlat, maxlon, maxlat, content_hash, record)
       SELECT $1, t.* FROM json_to_recordset($2::json) AS t(id text, source_id text, type text, severity text,
         publisher_status text, starts_at timestamptz, ends_at timestamptz, schedule json, closed boolean, surface text,
         source_updated_at timestamptz, svc_updated_at timestamptz, minlon double precision, minlat double precision,
         maxlon double precision, maxlat double precision, content_hash text, record json)
       ON CONFLICT (jurisdiction, id) DO UPDATE SET source_id = EXCLUDED.source_id, type = EXCLUDED.type, severity = EXCLUDED.severity,
         publisher_status = EXCLUDED.publisher_status, starts_at = EXCLUDED.starts_at,
         ends_at = EXCLUDED.ends_at, schedule = EXCLUDED.schedule, closed = EXCLUDED.closed, surface = EXCLUDED.surface,
         source_updated_at = EXCLUDED.source_updated_at, svc_updated_at = EXCLUDED.svc_updated_at,
         minlon = EXCLUDED.minlon, minlat = EXCLUDED.minlat, maxlon = EXCLUDED.maxlon, maxlat = EXCLUDED.maxlat,
         content_hash = EXCLUDED.content_hash, record = EXCLUDED.record`,
      [jurisdiction, JSON.stringify(writes.slice(i, i + BATCH))],
    );
  }
  const changed = change.added.length + change.updated.length + change.removed.length > 0;
  await recordSuccess(client, eventsFeed(jurisdiction), { changed, upstreamCount: outcome.upstreamCount, storedCount: events.length, note: outcome.note }, outcome.at);
  return change;
}
