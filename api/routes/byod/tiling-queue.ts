import { Queue } from 'bullmq';
import type { FastifyBaseLogger } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../../lib/config.ts';
import { createRedis } from '../../../lib/redis.ts';
import { BYOD_TILE_JOB, BYOD_TILE_QUEUE, byodTileJobOptions, type ByodTileJob } from '../../../schemas/byod-api.ts';

const ADD_TIMEOUT_MS = 2000;

/**
 * The API's side of the tiling queue (jobs/byod/): one job per GeoJSON upload. Postgres is the
 * record (the overlay stays `processing` until tiled), so a Redis that does not answer within
 * 2 s costs the upload nothing: it is logged, and the worker's sweep adds the job later.
 */
export class TilingQueue {
  private connection: Redis | null = null;
  private queue: Queue | null = null;

  constructor(private readonly config: Config, private readonly log: FastifyBaseLogger) {}

  async request(overlayId: string): Promise<void> {
    this.connection ??= createRedis(this.config.redisUrl);
    this.queue ??= new Queue(BYOD_TILE_QUEUE, { connection: this.connection, prefix: this.config.redisPrefix });
    const job: ByodTileJob = { overlayId };
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        this.queue.add(BYOD_TILE_JOB, job, byodTileJobOptions(overlayId, { attempts: this.config.jobAttempts, backoffMs: this.config.jobBackoffMs })),
        new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`no answer within ${ADD_TIMEOUT_MS} ms`)), ADD_TIMEOUT_MS))),
      ]);
    } catch (err) {
      this.log.warn({ err, overlayId }, 'byod: could not add the tiling job; the worker\'s sweep will');
    } finally {
      clearTimeout(timer);
    }
  }

  async close(): Promise<void> {
    await this.queue?.close().catch(() => {});
    if (this.connection) await this.connection.quit().catch(() => this.connection?.disconnect());
  }
}
