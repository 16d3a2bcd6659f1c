import type { Pool, PoolClient } from 'pg';

type Db = Pool | PoolClient;

/**
 * A 429's Retry-After holds back polls of the upstream that sent it, not of the feed: polling
 * another URL (`ingest road-events --once --url OTHER`) goes ahead, and that poll succeeding does
 * not lift the first upstream's wait. Rate limits are per server, so the key is the URL's origin;
 * kept in Postgres (road_upstream_backoff) so every process polling that origin honours it.
 */
export const upstreamOrigin = (url: string): string => new URL(url).origin;

/** Until when the upstream of `url` asked not to be called; null when it did not or the time has passed. */
export async function upstreamNotBefore(db: Db, url: string, now: Date): Promise<Date | null> {
  const { rows } = await db.query<{ not_before: Date }>('SELECT not_before FROM road_upstream_backoff WHERE origin = $1', [upstreamOrigin(url)]);
  const until = rows[0]?.not_before ?? null;
  return until && until > now ? until : null;
}

/** The back-off recorded for the upstream of `url`, for operators and tests. */
export async function readUpstreamBackoff(db: Db, url: string): Promise<{ notBefore: Date; recordedAt: Date; jurisdiction: string } | null> {
  const { rows } = await db.query<{ not_before: Date; recorded_at: Date; jurisdiction: string }>(
    'SELECT not_before, recorded_at, jurisdiction FROM road_upstream_backoff WHERE origin = $1', [upstreamOrigin(url)]);
  const r = rows[0];
  return r ? { notBefore: r.not_before, recordedAt: r.recorded_at, jurisdiction: r.jurisdiction } : null;
}

/** Records a 429 from the upstream of `url`: no poll of it before `until`. */
export async function recordUpstreamBackoff(db: Db, url: string, jurisdiction: string, at: Date, until: Date): Promise<void> {
  await db.query(
    `INSERT INTO road_upstream_backoff (origin, not_before, recorded_at, jurisdiction) VALUES ($1, $2, $3, $4)
     ON CONFLICT (origin) DO UPDATE SET not_before = $2, recorded_at = $3, jurisdiction = $4`,
    [upstreamOrigin(url), until, at, jurisdiction],
  );
}
