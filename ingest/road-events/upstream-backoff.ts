import type { Pool, PoolClient } from 'pg';
import { httpReason } from './upstream-error.ts';

type Db = Pool | PoolClient;

/**
 * A 429's Retry-After holds back polls of the upstream that sent it, not of the feed: polling
 * another URL (`ingest road-events --once --url OTHER`) goes ahead, and that poll succeeding does
 * not lift the first upstream's wait. Rate limits are per server, so the key is the URL's origin.
 * Kept in road_feed_status as rows named `upstream:<origin>` (only not_before and the 429's time
 * are used; the API reads the events:/closures: rows by name and never sees them), so every
 * process polling that origin honours it.
 */
export const upstreamKey = (url: string): string => `upstream:${new URL(url).origin}`;

/** Until when the upstream of `url` asked not to be called; null when it did not or the time has passed. */
export async function upstreamNotBefore(db: Db, url: string, now: Date): Promise<Date | null> {
  const { rows } = await db.query<{ not_before: Date | null }>('SELECT not_before FROM road_feed_status WHERE feed = $1', [upstreamKey(url)]);
  const until = rows[0]?.not_before ?? null;
  return until && until > now ? until : null;
}

/** Records a 429 from the upstream of `url`: no poll of it before `until`. */
export async function recordUpstreamBackoff(db: Db, url: string, jurisdiction: string, at: Date, until: Date): Promise<void> {
  await db.query(
    `INSERT INTO road_feed_status (feed, jurisdiction, source_url, last_error, last_error_at, not_before) VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (feed) DO UPDATE SET jurisdiction = $2, last_error = $4, last_error_at = $5, not_before = $6`,
    [upstreamKey(url), jurisdiction, new URL(url).origin, httpReason(429), at, until],
  );
}
