import type { Pool, PoolClient } from 'pg';

type Db = Pool | PoolClient;

/** Writing the poll status of road-event feeds; io/road-events/feed-status.ts reads it. */
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
    'UPDATE road_feed_status SET anomaly = $2, anomaly_at = $3, empty_answers = $4, empty_since = $5 WHERE feed = $1',
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
       upstream_count = $4, stored_count = $5, empty_answers = 0, empty_since = NULL,
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
