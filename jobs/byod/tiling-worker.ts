import { rm } from 'node:fs/promises';
import { Queue, UnrecoverableError, Worker, type Job } from 'bullmq';
import type { Redis } from 'ioredis';
import { ByodFiles } from '../../io/byod/files.ts';
import { existingIds, markFailed, markTiled, overlayById, processingOverlays } from '../../io/byod/store.ts';
import type { Config } from '../../lib/config.ts';
import type { Pool } from '../../lib/postgres.ts';
import { BYOD_TILE_JOB, BYOD_TILE_QUEUE, byodTileJobId, byodTileJobOptions, ByodTileJob } from '../../schemas/byod-api.ts';
import type { JobLog } from '../log.ts';
import { tileInChildProcess, TilingRefusedError } from './tile-process.ts';

/**
 * The tiling of GeoJSON uploads (POST /byod): one job per overlay on queue `byod-tiles`, the work
 * in a child process (tile-process.ts) killed past BYOD_TILING_SECONDS, the archive written under
 * .incoming/ (scratch files in a folder of the job's own there, removed whatever happens) and
 * renamed into place, then the row marked ready. A file that cannot be tiled, or passes a limit
 * (engines/byod/tiling-limits.ts), is recorded as failed with its reason (never retried); other
 * faults are retried and, once retries are spent, recorded as failed too. Postgres is the
 * record: a sweep every minute adds the job of any upload still waiting without one (Redis was
 * down when it was uploaded, or lost it) and removes files a crash left behind.
 */

const SWEEP_JOB = 'sweep';
const SWEEP_EVERY_MS = 60_000;
/** The API adds an upload's job right after storing it; the sweep leaves it that long. */
const SWEEP_GRACE_MS = 60_000;
const LEFTOVER_AGE_MS = 60 * 60_000;
const FAILED_MESSAGE = 'tiling failed on our side; delete the overlay and upload the file again';

export interface ByodTilingOptions {
  pool: Pool;
  connection: Redis;
  log: JobLog;
  /** Test-only: the sweep's interval, its grace for new uploads, and the tiling time limit (else config.byodTilingTimeoutMs). */
  sweepEveryMs?: number;
  sweepGraceMs?: number;
  tileTimeoutMs?: number;
}

export interface RunningByodTiling {
  worker: Worker;
  /** Runs one sweep now (also what the scheduled job runs). */
  sweep(): Promise<string>;
  close(): Promise<void>;
}

export async function startByodTiling(config: Config, options: ByodTilingOptions): Promise<RunningByodTiling> {
  const { pool, connection, log } = options;
  const files = new ByodFiles(config.byodDir);
  const retry = { attempts: config.jobAttempts, backoffMs: config.jobBackoffMs };
  const queue = new Queue(BYOD_TILE_QUEUE, { connection, prefix: config.redisPrefix });

  async function tile(overlayId: string): Promise<string> {
    const row = await overlayById(pool, overlayId);
    if (!row || row.kind !== 'geojson' || row.status !== 'processing') return `overlay ${overlayId}: nothing to tile`;
    const temp = await files.tempPath(`${overlayId}.tiles`);
    const workDir = `${temp}.work`;
    try {
      const request = { sourcePath: files.sourcePath(overlayId, 'geojson'), archivePath: temp, workDir };
      const tiled = await tileInChildProcess(request, options.tileTimeoutMs ?? config.byodTilingTimeoutMs);
      const archive = files.tilesPath(overlayId);
      await files.commit(temp, archive);
      if (!(await markTiled(pool, overlayId, tiled, new Date())) && !(await overlayById(pool, overlayId))) {
        await rm(archive, { force: true }); // deleted while it was being tiled
        return `overlay ${overlayId}: deleted while tiling`;
      }
      return `overlay ${overlayId}: ${tiled.tiles} tiles, zoom ${tiled.minZoom} to ${tiled.maxZoom}`;
    } catch (err) {
      if (!(err instanceof TilingRefusedError)) throw err;
      await markFailed(pool, overlayId, err.message);
      throw new UnrecoverableError(err.message);
    } finally {
      await Promise.all([rm(temp, { force: true }), rm(`${temp}.tiledata`, { force: true }), rm(workDir, { recursive: true, force: true })]);
    }
  }

  async function sweep(): Promise<string> {
    const waiting = await processingOverlays(pool, new Date(Date.now() - (options.sweepGraceMs ?? SWEEP_GRACE_MS)));
    let added = 0;
    for (const overlayId of waiting) {
      const job = await queue.getJob(byodTileJobId(overlayId));
      const state = job ? await job.getState() : null;
      if (state === 'failed') {
        await markFailed(pool, overlayId, FAILED_MESSAGE);
        continue;
      }
      if (job && state !== 'completed' && state !== 'unknown') continue; // queued, delayed or running
      await job?.remove();
      await queue.add(BYOD_TILE_JOB, { overlayId } satisfies ByodTileJob, byodTileJobOptions(overlayId, retry));
      added += 1;
    }
    const removed = await files.removeLeftovers((ids) => existingIds(pool, ids), LEFTOVER_AGE_MS);
    return `byod sweep: ${waiting.length} upload(s) waiting, ${added} job(s) added, ${removed.length} leftover file(s) removed`;
  }

  const worker = new Worker(BYOD_TILE_QUEUE, async (job: Job) => (job.name === SWEEP_JOB ? sweep() : tile((job.data as ByodTileJob).overlayId)), {
    connection,
    prefix: config.redisPrefix,
    concurrency: config.workerConcurrency,
    lockDuration: config.jobLockMs,
    stalledInterval: Math.max(500, Math.round(config.jobLockMs / 2)),
  });
  worker.on('completed', (job, summary: string) => log(job.name === SWEEP_JOB ? 'debug' : 'info', summary));
  worker.on('failed', (job, err) => {
    if (!job || job.name === SWEEP_JOB) return log('warn', `byod sweep failed: ${err.message}`);
    const overlayId = (job.data as ByodTileJob).overlayId;
    const final = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    log(final ? 'warn' : 'info', `overlay ${overlayId}: tiling ${final ? 'failed' : 'attempt failed, will retry'}: ${err.message}`);
    if (final && err.name !== 'UnrecoverableError') {
      markFailed(pool, overlayId, FAILED_MESSAGE).catch((e: Error) => log('error', `overlay ${overlayId}: could not record the failure: ${e.message}`));
    }
  });
  worker.on('error', (err) => log('error', `worker ${worker.name}: ${err.message}`));

  try {
    await queue.upsertJobScheduler(SWEEP_JOB, { every: options.sweepEveryMs ?? SWEEP_EVERY_MS }, {
      name: SWEEP_JOB,
      data: {},
      opts: { attempts: 1, removeOnComplete: { count: 10 }, removeOnFail: { count: 10 } },
    });
    await worker.waitUntilReady();
  } catch (err) {
    await worker.close(true).catch(() => {});
    await queue.close().catch(() => {});
    throw err;
  }
  return {
    worker,
    sweep,
    async close() {
      await worker.close();
      await queue.close();
    },
  };
}
