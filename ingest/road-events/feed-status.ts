import type { Pool, PoolClient } from 'pg';

type Db = Pool | PoolClient;

/** The poll status of one feed (row of road_feed_status). */
export interface FeedStatus {
  feed: string;
  jurisdiction: string;
  sourceUrl: string | null;
  /** The worker's schedule for this feed; freshness thresholds scale with it. */
  pollIntervalMs: number | null;
  lastAttemptAt: Date | null;
  lastSuccessAt: Date | null;
  lastChangeAt: Date | null;
  lastError: string | null;
  lastErrorAt: Date | null;
  anomaly: string | null;
  anomalyAt: Date | null;
  upstreamCount: number | null;
  storedCount: number;
  generation: number;
  /** Set on `upstream:<origin>` rows from a 429's Retry-After (upstream-backoff.ts); feed rows no longer use it. */
  notBefore: Date | null;
  /** Suspect empty answers in a row (refused), and when the first of them came. */
  emptyAnswers: number;
  emptySince: Date | null;
}

const COLUMNS = `feed, jurisdiction, source_url, poll_interval_ms, last_attempt_at, last_success_at, last_change_at, last_error, last_error_at,
  anomaly, anomaly_at, upstream_count, stored_count, generation, not_before, empty_answers, empty_since`;

interface Row {
  feed: string; jurisdiction: string; source_url: string | null; poll_interval_ms: number | null; last_attempt_at: Date | null;
  last_success_at: Date | null; last_change_at: Date | null; last_error: string | null; last_error_at: Date | null; anomaly: string | null;
  anomaly_at: Date | null; upstream_count: number | null; stored_count: number; generation: string | number; not_before: Date | null;
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
  notBefore: r.not_before,
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

/** An attempt starts; `pollIntervalMs` null (a one-off poll) keeps the interval recorded by the schedule. */
export async function recordAttempt(
  db: Db,
  feed: string,
  attempt: { jurisdiction: string; sourceUrl: string; pollIntervalMs: number | null },
  at: Date,
): Promise<void> {
  await db.query(
    `INSERT INTO road_feed_status (feed, jurisdiction, source_url, poll_interval_ms, last_attempt_at) VALUES ($1, $2, $3, $4, $5)
     ON CONFLICT (feed) DO UPDATE SET source_url = $3, poll_interval_ms = COALESCE($4, road_feed_status.poll_interval_ms), last_attempt_at = $5`,
    [feed, attempt.jurisdiction, attempt.sourceUrl, attempt.pollIntervalMs, at],
  );
}

/**
 * A failed attempt. `reason` is served by the API (meta.unavailable), so it is one of the generic
 * wordings of upstream-error.ts, never a detail. A 429's wait is kept per upstream (upstream-backoff.ts).
 */
export async function recordFailure(db: Db, feed: string, reason: string, at: Date): Promise<void> {
  await db.query('UPDATE road_feed_status SET last_error = $2, last_error_at = $3 WHERE feed = $1', [feed, reason, at]);
}

/** A suspect empty answer that was not accepted (the stored rows stay as they were): the `answers`-th in a row since `since`. */
export async function recordEmptyAnswer(db: Db, feed: string, message: string, at: Date, streak: { answers: number; since: Date }): Promise<void> {
  await db.query(
    'UPDATE road_feed_status SET anomaly = $2, anomaly_at = $3, not_before = NULL, empty_answers = $4, empty_since = $5 WHERE feed = $1',
    [feed, message, at, streak.answers, streak.since],
  );
}

/**
 * An accepted answer; called inside the transaction that stored it. `note` records why an answer
 * that looked suspect was believed (as the anomaly, at the success time: freshness does not count
 * it against the feed).
 */
export async function recordSuccess(
  client: PoolClient,
  feed: string,
  outcome: { changed: boolean; upstreamCount: number; storedCount: number; note?: string | null },
  at: Date,
): Promise<void> {
  await client.query(
    `UPDATE road_feed_status SET last_success_at = $2,
       last_change_at = CASE WHEN $3 OR last_change_at IS NULL THEN $2 ELSE last_change_at END,
       generation = generation + CASE WHEN $3 THEN 1 ELSE 0 END,
       upstream_count = $4, stored_count = $5, not_before = NULL, empty_answers = 0, empty_since = NULL,
       anomaly = COALESCE($6, anomaly), anomaly_at = CASE WHEN $6::text IS NULL THEN anomaly_at ELSE $2 END
     WHERE feed = $1`,
    [feed, at, outcome.changed, outcome.upstreamCount, outcome.storedCount, outcome.note ?? null],
  );
}

/**
 * Runs `fn` holding a session advisory lock named `name`, so one poll of a feed runs at a time
 * across every worker process; null (and `fn` not run) when another holds it. `fn` gets the
 * locking connection and does all its reads and writes on it: a poll uses one connection.
 */
export async function withPollLock<T>(pool: Pool, name: string, fn: (client: PoolClient) => Promise<T>): Promise<T | null> {
  const client = await pool.connect();
  // Held idle through the HTTP fetch: a dropped connection must fail the next query, not crash the process.
  const ignore = () => {};
  client.on('error', ignore);
  let broken: Error | undefined;
  try {
    const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_lock(4242017, hashtext($1)) AS ok', [name]);
    if (!rows[0]?.ok) return null;
    try {
      return await fn(client);
    } finally {
      await client.query('SELECT pg_advisory_unlock(4242017, hashtext($1))', [name]).catch((err: Error) => (broken = err));
    }
  } finally {
    client.off('error', ignore);
    client.release(broken);
  }
}
