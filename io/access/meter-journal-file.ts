import { open } from 'node:fs/promises';
import path from 'node:path';
import { inTransaction, type Pool } from '../../lib/postgres.ts';
import { aggregate, type MeterEvent } from '../../engines/access/metering.ts';
import { decodeLine } from '../../engines/access/meter-journal-format.ts';

/**
 * One meter journal file (its line format: engines/access/meter-journal-format.ts): the flush
 * that counts a file's lines in usage_daily exactly once. meter_journals keeps each file's
 * counted byte offset; a flush locks that row, sums the complete lines after the offset,
 * adds them and moves the offset in the same transaction. Whoever flushes, however often and
 * whatever is lost in between (an acknowledgement, a process), every line counts once.
 */

/** Bytes read and counted per transaction. */
const CHUNK_BYTES = 4 << 20;

const ADD_SQL = `
INSERT INTO usage_daily (day, key_id, account_id, family, dev, calls, premium_calls)
SELECT * FROM unnest($1::date[], $2::text[], $3::text[], $4::text[], $5::bool[], $6::int8[], $7::int8[])
ON CONFLICT (day, key_id, family, dev)
DO UPDATE SET calls = usage_daily.calls + EXCLUDED.calls, premium_calls = usage_daily.premium_calls + EXCLUDED.premium_calls`;

export interface FlushResult {
  /** Events counted by this flush. */
  events: number;
  /** Bytes of the file counted by this flush. */
  bytes: number;
  /** Lines that were not events (skipped, never counted). */
  malformed: number;
  /** No complete line is left after the counted offset (or the file is gone). */
  drained: boolean;
}

/** Counts the not-yet-counted complete lines of `dir/name`, in transactions of up to 4 MiB. */
export async function flushJournalFile(pool: Pool, dir: string, name: string): Promise<FlushResult> {
  const total: FlushResult = { events: 0, bytes: 0, malformed: 0, drained: false };
  for (;;) {
    const step = await inTransaction(pool, async (client) => {
      await client.query('INSERT INTO meter_journals (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [name]);
      const { rows } = await client.query<{ flushed_bytes: string }>('SELECT flushed_bytes FROM meter_journals WHERE id = $1 FOR UPDATE', [name]);
      const offset = Number(rows[0]!.flushed_bytes);
      const chunk = await readCompleteLines(path.join(dir, name), offset);
      if (chunk === null) return { events: 0, bytes: 0, malformed: 0, drained: true, more: false };
      const events: MeterEvent[] = [];
      let malformed = 0;
      for (const line of chunk.text.split('\n')) {
        if (line === '') continue;
        const event = decodeLine(line);
        if (event) events.push(event);
        else malformed += 1;
      }
      const r = aggregate(events);
      if (r.days.length) await client.query(ADD_SQL, [r.days, r.keyIds, r.accountIds, r.families, r.devs, r.calls, r.premium]);
      await client.query('UPDATE meter_journals SET flushed_bytes = $2, flushed_at = now() WHERE id = $1', [name, offset + chunk.bytes]);
      return { events: events.length, bytes: chunk.bytes, malformed, drained: !chunk.more, more: chunk.more };
    });
    total.events += step.events;
    total.bytes += step.bytes;
    total.malformed += step.malformed;
    if (!step.more) return { ...total, drained: step.drained };
  }
}

/** Marks a deleted journal's row, so pruning may drop it later (a row of a file still on disk never goes). */
export async function markJournalFinished(pool: Pool, name: string): Promise<void> {
  await pool.query('UPDATE meter_journals SET finished = true WHERE id = $1', [name]);
}

export async function pruneFinishedJournals(pool: Pool): Promise<void> {
  await pool.query(`DELETE FROM meter_journals WHERE finished AND flushed_at < now() - interval '2 days'`);
}

/**
 * The complete lines after `offset` (up to CHUNK_BYTES), or null when there are none or the file
 * is gone. A line being appended right now has no newline yet and waits for the next flush.
 */
async function readCompleteLines(file: string, offset: number): Promise<{ text: string; bytes: number; more: boolean } | null> {
  const handle = await open(file, 'r').catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return null;
    throw err;
  });
  if (handle === null) return null;
  try {
    const size = (await handle.stat()).size;
    const length = Math.min(size - offset, CHUNK_BYTES);
    if (length <= 0) return null;
    const buffer = Buffer.alloc(length);
    const { bytesRead } = await handle.read(buffer, 0, length, offset);
    const end = buffer.lastIndexOf(0x0a, bytesRead - 1) + 1;
    if (end === 0) return null;
    return { text: buffer.toString('utf8', 0, end), bytes: end, more: offset + end < size && length === CHUNK_BYTES };
  } finally {
    await handle.close();
  }
}
