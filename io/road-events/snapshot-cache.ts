import type { ClientBase, Pool } from 'pg';
import { eventColumns, type CachedEvent, type RoadEventsView } from '../../engines/road-events/event-columns.ts';
import type { RoadGeometry } from '../../engines/road-events/geometry.ts';
import { eventsFeed, ROAD_EVENT_JURISDICTIONS } from '../../engines/road-events/jurisdictions.ts';
import type { EventType, PublisherStatus, Severity } from '../../engines/road-events/mapping.ts';
import { scheduleFromJson, type ScheduleJson } from '../../engines/road-events/schedule.ts';
import type { FeedState } from '../../engines/road-events/freshness.ts';
import { inTransaction } from '../../lib/postgres.ts';
import { Refreshing } from '../../lib/refreshing.ts';

/** How long a view is trusted before the feed status is read again (and events reloaded if they changed). */
export const VIEW_TTL_MS = 500;
/** Longest a request waits for a refresh when an older view can answer it. */
const REFRESH_WAIT_MS = 1000;

interface StatusRow {
  jurisdiction: string;
  generation: string;
  poll_interval_ms: number | null;
  last_success_ms: number | null;
  last_change_ms: number | null;
  last_error: string | null;
  last_error_ms: number | null;
  anomaly: string | null;
  anomaly_ms: number | null;
}

const epochMs = (column: string) => `(extract(epoch FROM ${column}) * 1000)::float8`;

/**
 * The API's copy of the road-event snapshots in Postgres. Every VIEW_TTL_MS the next request
 * reads the (tiny) feed status; only when a jurisdiction's generation moved are its events
 * reloaded. Concurrent requests share one refresh. When Postgres cannot be read (or is slow), the
 * last view keeps being served: freshness then ages it into partial and 503 by the status it last
 * saw. With no view yet, a failing Postgres is a 503.
 */
export class RoadEventsCache {
  private generations = new Map<string, string>();
  private eventsBy = new Map<string, CachedEvent[]>();
  private readonly view: Refreshing<RoadEventsView>;

  constructor(private readonly pool: Pool, onError: (err: unknown) => void = () => {}, ttlMs = VIEW_TTL_MS) {
    this.view = new Refreshing((previous) => this.refresh(previous), { ttlMs, waitMs: REFRESH_WAIT_MS, onError });
  }

  /** The next request reads the feed status again (tests call this right after a poll). */
  invalidate(): void {
    this.view.invalidate();
  }

  current(): Promise<RoadEventsView> {
    return this.view.current();
  }

  private async refresh(previous: RoadEventsView | null): Promise<RoadEventsView> {
    // One snapshot of status and events, so a view never pairs new rows with an old generation.
    const { statusRows, feeds, reload, loaded } = await inTransaction(this.pool, async (client) => {
      const { rows: statusRows } = await client.query<StatusRow>(
        `SELECT jurisdiction, generation::text AS generation, poll_interval_ms, ${epochMs('last_success_at')} AS last_success_ms, ${epochMs('last_change_at')} AS last_change_ms,
           last_error, ${epochMs('last_error_at')} AS last_error_ms, anomaly, ${epochMs('anomaly_at')} AS anomaly_ms
         FROM road_feed_status WHERE feed = ANY($1)`,
        [ROAD_EVENT_JURISDICTIONS.map(eventsFeed)],
      );
      const feeds = new Map<string, FeedState>();
      const reload: string[] = [];
      for (const r of statusRows) {
        feeds.set(r.jurisdiction, {
          jurisdiction: r.jurisdiction,
          pollIntervalMs: r.poll_interval_ms,
          lastSuccessMs: r.last_success_ms,
          lastChangeMs: r.last_change_ms,
          lastError: r.last_error,
          lastErrorMs: r.last_error_ms,
          anomaly: r.anomaly,
          anomalyMs: r.anomaly_ms,
        });
        if (this.generations.get(r.jurisdiction) !== r.generation) reload.push(r.jurisdiction);
      }
      const loaded = reload.length ? await this.loadEvents(client, reload) : null;
      return { statusRows, feeds, reload, loaded };
    }, 'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    for (const jurisdiction of reload) {
      this.eventsBy.set(jurisdiction, loaded!.get(jurisdiction) ?? []);
      this.generations.set(jurisdiction, statusRows.find((r) => r.jurisdiction === jurisdiction)!.generation);
    }
    return { columns: reload.length || !previous ? eventColumns([...this.eventsBy.values()].flat()) : previous.columns, feeds };
  }

  private async loadEvents(client: ClientBase, jurisdictions: string[]): Promise<Map<string, CachedEvent[]>> {
    const { rows } = await client.query<{
      id: string; jurisdiction: string; type: EventType; severity: Severity; publisher_status: PublisherStatus;
      schedule: ScheduleJson; closed: boolean; has_surface: boolean; updated_ms: number; minlon: number; minlat: number; maxlon: number; maxlat: number;
      geometry: RoadGeometry; json: string;
    }>(
      `SELECT id, jurisdiction, type, severity, publisher_status, schedule, closed, surface IS NOT NULL AS has_surface,
         ${epochMs('source_updated_at')} AS updated_ms, minlon, minlat, maxlon, maxlat, record -> 'geometry' AS geometry, record::text AS json
       FROM road_events WHERE jurisdiction = ANY($1)`,
      [jurisdictions],
    );
    const byJurisdiction = new Map<string, CachedEvent[]>();
    for (const r of rows) {
      const list = byJurisdiction.get(r.jurisdiction) ?? [];
      list.push({
        id: r.id,
        jurisdiction: r.jurisdiction,
        type: r.type,
        severity: r.severity,
        publisherStatus: r.publisher_status,
        schedule: scheduleFromJson(r.schedule),
        closed: r.closed,
        hasSurface: r.has_surface,
        sourceUpdatedMs: r.updated_ms,
        bbox: { minLon: r.minlon, minLat: r.minlat, maxLon: r.maxlon, maxLat: r.maxlat },
        geometry: r.geometry,
        jsonHead: Buffer.from(r.json.trimEnd().slice(0, -1)),
      });
      byJurisdiction.set(r.jurisdiction, list);
    }
    return byJurisdiction;
  }
}
