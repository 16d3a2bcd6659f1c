/** Reading the poll status of road-event feeds (table road_feed_status); the polls write it (ingest/road-events/feed-status.ts). */
import type { Pool, PoolClient } from 'pg';
import type { FeedStatus } from '../../engines/road-events/poll-status.ts';

export type { FeedStatus };

type Db = Pool | PoolClient;

const COLUMNS = `feed, jurisdiction, source_url, poll_interval_ms, last_attempt_at, last_success_at, last_change_at, last_error, last_error_at,
  anomaly, anomaly_at, upstream_count, stored_count, generation, empty_answers, empty_since`;

interface Row {
  feed: string; jurisdiction: string; source_url: string | null; poll_interval_ms: number | null; last_attempt_at: Date | null;
  last_success_at: Date | null; last_change_at: Date | null; last_error: string | null; last_error_at: Date | null; anomaly: string | null;
  anomaly_at: Date | null; upstream_count: number | null; stored_count: number; generation: string | number;
  empty_answers: number; empty_since: Date | null;
}

const fromRow = (r: Row): FeedStatus => ({
  feed: r.feed,
  jurisdiction: r.jurisdiction,
  sourceUrl: r.source_url,
  pollIntervalMs: r.poll_interval_ms,
  lastAttemptAt: r.last_attempt_at,
  lastSuccessAt: r.last_success_at,
  lastChangeAt: r.last_change_at,
  lastError: r.last_error,
  lastErrorAt: r.last_error_at,
  anomaly: r.anomaly,
  anomalyAt: r.anomaly_at,
  upstreamCount: r.upstream_count,
  storedCount: r.stored_count,
  generation: Number(r.generation),
  emptyAnswers: r.empty_answers,
  emptySince: r.empty_since,
});

export async function readFeedStatuses(db: Db, feeds: string[]): Promise<FeedStatus[]> {
  const { rows } = await db.query<Row>(`SELECT ${COLUMNS} FROM road_feed_status WHERE feed = ANY($1) ORDER BY feed`, [feeds]);
  return rows.map(fromRow);
}

export async function readFeedStatus(db: Db, feed: string): Promise<FeedStatus | null> {
  return (await readFeedStatuses(db, [feed]))[0] ?? null;
}
