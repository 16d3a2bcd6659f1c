import type { Redis } from 'ioredis';
import type { Pool } from '../../lib/postgres.ts';
import { redisReady } from '../../lib/redis.ts';
import { withinMs } from '../../lib/within-ms.ts';

/** The last round trip to one dependency. */
export interface DependencyHealth {
  ok: boolean;
  /** Milliseconds the last check took; null when it did not answer in time. */
  roundTripMs: number | null;
  /** Date.now() of the last check. */
  checkedAt: number;
  /** Why the last check failed. */
  error?: string;
}

export interface HealthSnapshot {
  postgres: DependencyHealth;
  redis: DependencyHealth;
}

/** Between checks; with CHECK_TIMEOUT_MS a lost dependency shows within about 4 s, well inside the 10 s readiness promise. */
export const PROBE_INTERVAL_MS = 2000;
const CHECK_TIMEOUT_MS = 2000;

const unchecked = (): DependencyHealth => ({ ok: false, roundTripMs: null, checkedAt: 0, error: 'not checked yet' });

async function timed(check: () => Promise<unknown>, timeoutMs: number): Promise<DependencyHealth> {
  const began = performance.now();
  try {
    await withinMs(check(), timeoutMs, `no answer within ${timeoutMs} ms`);
    return { ok: true, roundTripMs: Math.round((performance.now() - began) * 100) / 100, checkedAt: Date.now() };
  } catch (err) {
    return { ok: false, roundTripMs: null, checkedAt: Date.now(), error: (err as Error).message || String(err) };
  }
}

/**
 * Checks Postgres (`SELECT 1`) and Redis (`PING`) in the background every PROBE_INTERVAL_MS on the
 * connections the API itself uses, so /readyz and the metrics read the last result at no cost and
 * a probe storm cannot load either dependency.
 */
export class HealthProbe {
  private latest: HealthSnapshot = { postgres: unchecked(), redis: unchecked() };
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;

  constructor(private readonly deps: { pool: Pool; redis: Redis; intervalMs?: number; timeoutMs?: number }) {}

  /** Checks once, then keeps checking until stop(). */
  async start(): Promise<void> {
    this.stopped = false;
    await this.checkNow();
    this.schedule();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  snapshot(): HealthSnapshot {
    return this.latest;
  }

  async checkNow(): Promise<HealthSnapshot> {
    const timeoutMs = this.deps.timeoutMs ?? CHECK_TIMEOUT_MS;
    const [postgres, redis] = await Promise.all([
      timed(() => this.deps.pool.query('SELECT 1'), timeoutMs),
      timed(() => this.pingRedis(timeoutMs), timeoutMs),
    ]);
    this.latest = { postgres, redis };
    return this.latest;
  }

  /** The API's client has no offline queue: a connection still being made is waited for, not failed. */
  private async pingRedis(timeoutMs: number): Promise<void> {
    const redis = this.deps.redis;
    if (redis.status === 'connecting' || redis.status === 'connect') await redisReady(redis, timeoutMs);
    await redis.ping();
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => {
      void this.checkNow().finally(() => this.schedule());
    }, this.deps.intervalMs ?? PROBE_INTERVAL_MS);
    this.timer.unref();
  }
}
