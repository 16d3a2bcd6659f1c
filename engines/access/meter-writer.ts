import { randomUUID } from 'node:crypto';
import type { Pool } from '../../lib/postgres.ts';
import { aggregate, type AggregatedBatch, type MeterEvent } from './metering.ts';

/**
 * Group commit of meter events: answers wait for the commit of the batch holding their event,
 * so every answer a client receives was counted first. A batch is one statement (so one
 * transaction) that records its random id in meter_batches and adds its sums to usage_daily;
 * retried with the same id after an unknown outcome, it finds the id and counts nothing twice.
 */

export type Queryable = Pick<Pool, 'query'>;

export interface SealedBatch {
  id: string;
  /** Requests in the batch (meter_batches.events). */
  events: number;
  rows: AggregatedBatch;
}

const COMMIT_SQL = `
WITH batch AS (
  INSERT INTO meter_batches (id, events) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING RETURNING id
)
INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls)
SELECT u.day, u.key_id, u.account_id, u.family, u.dev, u.calls
  FROM unnest($3::date[], $4::text[], $5::text[], $6::text[], $7::bool[], $8::int8[])
       AS u(day, key_id, account_id, family, dev, calls)
 WHERE EXISTS (SELECT 1 FROM batch)
ON CONFLICT (day, key_id, family, dev) DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls`;

// events = -1 marks a revoked batch: inserting the mark first makes a late commit of the same id
// a duplicate (and waits for one in flight); xmax <> 0 tells that the row existed, i.e. was counted.
const REVOKE_SQL = `
WITH mark AS (
  INSERT INTO meter_batches (id, events) VALUES ($1, -1)
  ON CONFLICT (id) DO UPDATE SET events = -1 WHERE meter_batches.events >= 0
  RETURNING (xmax <> 0) AS was_counted
)
UPDATE usage_daily SET calls = usage_daily.calls - u.calls
  FROM unnest($2::date[], $3::text[], $4::text[], $5::bool[], $6::int8[]) AS u(day, key_id, family, dev, calls)
 WHERE usage_daily.day = u.day AND usage_daily.key_id = u.key_id AND usage_daily.family = u.family
   AND usage_daily.dev = u.dev AND coalesce((SELECT was_counted FROM mark), false)`;

const PRUNE_SQL = `DELETE FROM meter_batches WHERE committed_at < now() - interval '2 days'`;

function queryConfig(text: string, values: unknown[], timeoutMs?: number) {
  return timeoutMs === undefined ? { text, values } : { text, values, query_timeout: Math.max(1, Math.ceil(timeoutMs)) };
}

/** Commits a batch once: `duplicate` when its id was already committed (or revoked). */
export async function commitBatch(db: Queryable, batch: SealedBatch, timeoutMs?: number): Promise<'committed' | 'duplicate'> {
  const r = batch.rows;
  if (r.days.length === 0) return 'committed';
  const result = await db.query(queryConfig(COMMIT_SQL, [batch.id, batch.events, r.days, r.keyIds, r.accountIds, r.families, r.devs, r.calls], timeoutMs));
  return result.rowCount ? 'committed' : 'duplicate';
}

/** Makes sure a batch is not counted: blocks its id, and takes its calls back if it had been committed. */
export async function revokeBatch(db: Queryable, batch: SealedBatch, timeoutMs?: number): Promise<void> {
  const r = batch.rows;
  if (r.days.length === 0) return;
  await db.query(queryConfig(REVOKE_SQL, [batch.id, r.days, r.keyIds, r.families, r.devs, r.calls], timeoutMs));
}

export class MeterUnavailableError extends Error {
  constructor() {
    super('usage could not be recorded: Postgres did not answer');
  }
}

export interface MeterWriterOptions {
  pool: Queryable;
  /**
   * The longest events wait for more to join their batch while `eagerInFlight` batches are
   * already committing; with fewer, a batch is sealed at the end of the event-loop turn.
   */
  flushEveryMs?: number;
  /** Below this many batches committing, a new batch does not wait for `flushEveryMs`. */
  eagerInFlight?: number;
  /** A batch is sealed at this many events without waiting. */
  maxEvents?: number;
  /** How long a batch's answers are held while Postgres does not answer; then they fail. */
  holdMs: number;
  /** Batches committing at once (each takes a pool connection). */
  maxInFlight?: number;
  /** Told of each failed attempt and each batch given up (for logging). */
  onProblem?: (err: unknown, what: 'retry' | 'gave-up' | 'revoke-failed') => void;
}

export interface MeterWriter {
  /** Resolves once the event is committed; rejects with MeterUnavailableError past `holdMs`. */
  record(event: MeterEvent): Promise<void>;
  /** Seals the current batch and waits for every batch so far to settle. */
  flush(): Promise<void>;
  /** flush(), then one more try at revoking abandoned batches; record() still works after it. */
  close(): Promise<void>;
}

interface OpenBatch {
  events: MeterEvent[];
  createdAt: number;
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
}

const PRUNE_EVERY_MS = 10 * 60_000;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createMeterWriter(options: MeterWriterOptions): MeterWriter {
  const { pool, holdMs } = options;
  const flushEveryMs = options.flushEveryMs ?? 5;
  const maxEvents = options.maxEvents ?? 500;
  const maxInFlight = options.maxInFlight ?? 4;
  const eagerInFlight = Math.min(options.eagerInFlight ?? 2, maxInFlight);
  const onProblem = options.onProblem ?? (() => {});
  let open: OpenBatch | null = null;
  let timer: NodeJS.Timeout | null = null;
  let immediate: NodeJS.Immediate | null = null;
  const queue: OpenBatch[] = [];
  const settling = new Set<Promise<void>>();
  let inFlight = 0;
  const abandoned: SealedBatch[] = [];
  let lastPruneAt = -Infinity;

  function newBatch(): OpenBatch {
    let resolve!: () => void;
    let reject!: (err: Error) => void;
    const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
    // Waiters attach their own handlers; this keeps an unobserved rejection from being fatal.
    promise.catch(() => {});
    return { events: [], createdAt: performance.now(), promise, resolve, reject };
  }

  function seal(): void {
    if (timer) clearTimeout(timer);
    if (immediate) clearImmediate(immediate);
    timer = null;
    immediate = null;
    if (!open) return;
    queue.push(open);
    open = null;
    pump();
  }

  function pump(): void {
    while (inFlight < maxInFlight && queue.length) {
      const batch = queue.shift()!;
      inFlight += 1;
      const done = run(batch).finally(() => {
        inFlight -= 1;
        settling.delete(done);
        // Classic group commit: what gathered while the last commit ran goes now.
        if (open && inFlight < eagerInFlight) seal();
        else pump();
      });
      settling.add(done);
    }
  }

  async function run(pending: OpenBatch): Promise<void> {
    const batch: SealedBatch = { id: randomUUID(), events: pending.events.length, rows: aggregate(pending.events) };
    const deadline = pending.createdAt + holdMs;
    let attempted = false;
    for (let attempt = 0; ; attempt += 1) {
      const remaining = deadline - performance.now();
      if (remaining <= 0) break;
      attempted = true;
      try {
        await commitBatch(pool, batch, remaining);
        pending.resolve();
        if (performance.now() - lastPruneAt > PRUNE_EVERY_MS) {
          lastPruneAt = performance.now();
          pool.query(PRUNE_SQL).catch(() => { lastPruneAt = -Infinity; });
        }
        retryRevocations();
        return;
      } catch (err) {
        onProblem(err, 'retry');
        const backoff = Math.min(1000, 20 * 2 ** attempt);
        if (performance.now() + backoff >= deadline) break;
        await sleep(backoff);
      }
    }
    onProblem(new MeterUnavailableError(), 'gave-up');
    pending.reject(new MeterUnavailableError());
    // The last attempt may have committed after all (its answer lost): undo it once Postgres answers.
    if (attempted) abandoned.push(batch);
  }

  let revoking: Promise<void> | null = null;
  function retryRevocations(): Promise<void> {
    if (revoking || abandoned.length === 0) return revoking ?? Promise.resolve();
    revoking = (async () => {
      while (abandoned.length) {
        try {
          await revokeBatch(pool, abandoned[0]!, 5000);
          abandoned.shift();
        } catch (err) {
          onProblem(err, 'revoke-failed');
          return;
        }
      }
    })().finally(() => { revoking = null; });
    return revoking;
  }

  return {
    record(event) {
      if (!open) {
        open = newBatch();
        if (inFlight + queue.length < eagerInFlight) immediate = setImmediate(seal);
        else timer = setTimeout(seal, flushEveryMs);
      }
      const batch = open;
      batch.events.push(event);
      if (batch.events.length >= maxEvents) seal();
      return batch.promise;
    },
    async flush() {
      seal();
      while (settling.size || queue.length) await Promise.all([...settling]);
    },
    async close() {
      await this.flush();
      await retryRevocations();
    },
  };
}
