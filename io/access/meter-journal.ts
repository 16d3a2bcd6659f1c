import { randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, writeSync } from 'node:fs';
import { readdir, unlink } from 'node:fs/promises';
import { leftByDeadProcess, ownerOf, ownerPrefix } from '../../lib/process-owner.ts';
import type { Pool } from '../../lib/postgres.ts';
import { encodeEvent, JOURNAL_SUFFIX } from '../../engines/access/meter-journal-format.ts';
import { flushJournalFile, markJournalFinished, pruneFinishedJournals } from './meter-journal-file.ts';
import type { MeterEvent } from '../../engines/access/metering.ts';

/**
 * The meter's write-ahead journal. Each answered request's event is appended to a file of this
 * process just before its answer is written — the events of one event-loop turn in one
 * synchronous write, their answers released right after it — and a flusher counts the file in
 * Postgres a few times a second (meter-journal-file.ts). So:
 * - a SIGKILLed process loses nothing: the page cache keeps its file, and the next flush of any
 *   process on the host adopts it (its pid is gone) and counts what is left;
 * - an answer never waits for Postgres, and a Postgres outage only delays the counting;
 * - only the instant between the append and the socket write can count an answer a killed
 *   process never sent, where a commit before each answer left a whole round trip.
 * What a machine loses at power-off is the last page-cache writeback (not fsynced per event).
 */

export class MeterUnavailableError extends Error {
  constructor(cause: unknown) {
    super('usage could not be recorded: the meter journal cannot be written', { cause });
  }
}

export interface MeterJournalOptions {
  /** This host's journal directory (METER_JOURNAL_DIR); never shared between hosts. */
  dir: string;
  pool: Pool;
  /** How often the flusher counts the journal (and adopts dead processes' files). */
  flushEveryMs?: number;
  /** A file is closed and a new one started past this size; closed files are deleted once counted. */
  rotateBytes?: number;
  /** Told of failed flushes (retried with backoff) and malformed lines. */
  onProblem?: (err: unknown) => void;
}

export interface MeterJournal {
  /**
   * Appends an answer's event with the others of this event-loop turn, then calls back: with no
   * error once the line is in the file, with a MeterUnavailableError when it cannot be written.
   */
  record(event: MeterEvent, written: (err?: MeterUnavailableError) => void): void;
  /** Counts everything appended so far (this process's files and dead processes'). */
  flush(): Promise<void>;
  /** flush(), then closes and deletes this process's counted files. */
  close(): Promise<void>;
  /** What the metrics report (read-only). */
  stats(): MeterJournalStats;
}

export interface MeterJournalStats {
  /** Bytes this process appended that no flush has counted in Postgres yet. */
  backlogBytes: number;
  /** Milliseconds since the last successful flush (since the journal was created when none succeeded yet). */
  msSinceFlush: number;
}

/** Journals live in this process: `<host>~<pid>~<nonce>` prefixes; their files are never adopted. */
const LIVE_PREFIXES = new Set<string>();

function adoptable(name: string): boolean {
  if (!name.endsWith(JOURNAL_SUFFIX) || !leftByDeadProcess(name)) return false;
  return ownerOf(name)?.pid !== process.pid || ![...LIVE_PREFIXES].some((p) => name.startsWith(p));
}

const MAX_BACKOFF_MS = 5000;
const BATCH_LINES = 512;
const PRUNE_EVERY_MS = 3_600_000;

export function createMeterJournal(options: MeterJournalOptions): MeterJournal {
  const { dir, pool } = options;
  const flushEveryMs = options.flushEveryMs ?? 200;
  const rotateBytes = options.rotateBytes ?? 16 << 20;
  const onProblem = options.onProblem ?? (() => {});
  const prefix = `${ownerPrefix()}${randomBytes(4).toString('hex')}~`;
  LIVE_PREFIXES.add(prefix);
  mkdirSync(dir, { recursive: true });

  let seq = 0;
  let appendedBytes = 0;
  let countedBytes = 0;
  let lastFlushAt = performance.now();
  let current: { name: string; fd: number; bytes: number } | null = null;
  /** This process's closed files, deleted once counted. */
  const closed: string[] = [];

  function rotate(): void {
    if (!current) return;
    const { name, fd } = current;
    current = null;
    closed.push(name);
    try {
      closeSync(fd);
    } catch {
      // A descriptor that failed a write may fail to close too; the file is counted all the same.
    }
  }

  function append(lines: string): void {
    if (!current) {
      const name = `${prefix}${String(seq++).padStart(6, '0')}${JOURNAL_SUFFIX}`;
      current = { name, fd: openSync(`${dir}/${name}`, 'a'), bytes: 0 };
    }
    const data = Buffer.from(lines);
    let written = 0;
    while (written < data.length) written += writeSync(current.fd, data, written);
    current.bytes += written;
    appendedBytes += written;
    if (current.bytes >= rotateBytes) rotate();
  }

  /** This turn's lines and their callbacks, written together in setImmediate (or at BATCH_LINES). */
  let batch: { lines: string[]; callbacks: ((err?: MeterUnavailableError) => void)[] } | null = null;

  function writeBatch(): void {
    const pending = batch;
    if (!pending) return;
    batch = null;
    let failure: MeterUnavailableError | undefined;
    try {
      append(pending.lines.join(''));
    } catch (err) {
      // Whatever part of the batch reached the file ends without a newline: it is never counted,
      // and the next batch starts a new file rather than continuing it.
      rotate();
      failure = new MeterUnavailableError(err);
    }
    for (const callback of pending.callbacks) callback(failure);
  }

  let flushing: Promise<void> | null = null;
  let failures = 0;
  let nextAttemptAt = 0;
  let lastPruneAt = -Infinity;

  async function flushOnce(): Promise<void> {
    // Only files closed before this flush began may be deleted once drained: the current one
    // may gain lines while the flush awaits Postgres.
    const sealed = [...closed, ...(await readdir(dir)).filter(adoptable)];
    const live = current?.name;
    for (const name of live ? [...sealed, live] : sealed) {
      const result = await flushJournalFile(pool, dir, name);
      if (name.startsWith(prefix)) countedBytes += result.bytes;
      if (result.malformed) onProblem(new Error(`meter journal ${name}: ${result.malformed} malformed lines skipped`));
      if (name === live || !result.drained) continue;
      await unlink(`${dir}/${name}`).catch((err: NodeJS.ErrnoException) => {
        if (err.code !== 'ENOENT') throw err;
      });
      if (closed.includes(name)) closed.splice(closed.indexOf(name), 1);
      await markJournalFinished(pool, name);
    }
    if (performance.now() - lastPruneAt > PRUNE_EVERY_MS) {
      lastPruneAt = performance.now();
      await pruneFinishedJournals(pool);
    }
  }

  function flush(): Promise<void> {
    flushing ??= flushOnce().then(
      () => {
        failures = 0;
        nextAttemptAt = 0;
        lastFlushAt = performance.now();
      },
      (err: unknown) => {
        failures += 1;
        nextAttemptAt = performance.now() + Math.min(MAX_BACKOFF_MS, flushEveryMs * 2 ** failures);
        throw err;
      },
    ).finally(() => {
      flushing = null;
    });
    return flushing;
  }

  const timer = setInterval(() => {
    if (flushing || performance.now() < nextAttemptAt) return;
    flush().catch(onProblem);
  }, flushEveryMs);
  timer.unref();

  return {
    record(event, written) {
      if (!batch) {
        batch = { lines: [], callbacks: [] };
        setImmediate(writeBatch);
      }
      batch.lines.push(encodeEvent(event));
      batch.callbacks.push(written);
      if (batch.lines.length >= BATCH_LINES) writeBatch();
    },
    async flush() {
      while (flushing) await flushing.catch(() => {});
      await flush();
    },
    async close() {
      clearInterval(timer);
      writeBatch();
      while (flushing) await flushing.catch(() => {});
      rotate();
      try {
        await flush();
      } finally {
        LIVE_PREFIXES.delete(prefix);
      }
    },
    stats() {
      return { backlogBytes: appendedBytes - countedBytes, msSinceFlush: performance.now() - lastFlushAt };
    },
  };
}
