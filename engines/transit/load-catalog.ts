import type { DuckDBConnection } from '@duckdb/node-api';
import { queryRows } from '../../lib/duckdb-rows.ts';
import type { Agency, TransitRoute, Stop } from '../../schemas/transit-api.ts';
import type { FeedData } from './data.ts';

/** Feeds with their stats and service-date calendar (base epochs per date). */
export async function loadFeeds(connection: DuckDBConnection): Promise<FeedData[]> {
  const feeds = await queryRows<{
    feed_id: string; source: string; licence: string | null; attribution: string | null;
    source_updated_at: string | null; source_version: string | null; content_hash: string; timezone: string;
    max_secs: number | null;
  }>(connection, `
    SELECT f.feed_id, f.source, f.licence, f.attribution, f.source_updated_at, f.source_version,
           f.content_hash, f.timezone, s.max_secs
    FROM feeds f LEFT JOIN feed_stats s USING (feed_id)
    ORDER BY f.feed_id`);
  const dates = await queryRows<{ feed_id: string; day: number; base_epoch: number }>(connection, `
    SELECT feed_id, (service_date - DATE '1970-01-01')::INTEGER AS day, min(base_epoch)::DOUBLE AS base_epoch
    FROM service_days GROUP BY feed_id, service_date ORDER BY feed_id, day`);
  const datesByFeed = new Map<string, { day: number; base_epoch: number }[]>();
  for (const row of dates) {
    const list = datesByFeed.get(row.feed_id);
    if (list) list.push(row);
    else datesByFeed.set(row.feed_id, [row]);
  }
  return feeds.map((f) => {
    const feedDates = datesByFeed.get(f.feed_id) ?? [];
    return {
      feedId: f.feed_id,
      source: f.source,
      licence: f.licence,
      attribution: f.attribution,
      sourceUpdatedAt: f.source_updated_at,
      sourceVersion: f.source_version,
      contentHash: f.content_hash,
      timezone: f.timezone,
      maxSecs: f.max_secs ?? 0,
      serviceDates: Int32Array.from(feedDates, (d) => d.day),
      baseEpochs: Float64Array.from(feedDates, (d) => d.base_epoch),
    };
  });
}

export async function loadAgencies(connection: DuckDBConnection): Promise<Agency[]> {
  return queryRows<Agency>(connection, `
    SELECT id, feed_id, name, url, timezone, lang, phone FROM agencies ORDER BY id`);
}

export async function loadRoutes(connection: DuckDBConnection): Promise<TransitRoute[]> {
  return queryRows<TransitRoute>(connection, `
    SELECT id, feed_id, agency_id, short_name, long_name, description, type, url, color, text_color
    FROM routes ORDER BY id`);
}

const LOCATION_TYPES = ['stop', 'station', 'entrance', 'node', 'boarding_area'] as const;

/** Stops in id order; routes and children are filled in once the schedule is loaded. */
export async function loadStops(connection: DuckDBConnection): Promise<Stop[]> {
  const rows = await queryRows<{
    id: string; feed_id: string; code: string | null; name: string | null; lon: number | null; lat: number | null;
    location_type: number; parent_id: string | null; timezone: string; wheelchair_boarding: number | null;
  }>(connection, `
    SELECT id, feed_id, code, name, lon, lat, location_type, parent_id, timezone, wheelchair_boarding
    FROM stops ORDER BY id`);
  return rows.map((r) => ({
    id: r.id,
    feed_id: r.feed_id,
    code: r.code,
    name: r.name,
    lon: r.lon,
    lat: r.lat,
    location_type: LOCATION_TYPES[r.location_type] ?? 'stop',
    parent_id: r.parent_id,
    children: [],
    timezone: r.timezone,
    wheelchair_boarding: r.wheelchair_boarding,
    routes: [],
  }));
}
