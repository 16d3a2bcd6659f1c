import { Redis } from 'ioredis';
import { redactUrl } from './redact-url.ts';

export class RedisUnavailableError extends Error {
  constructor(readonly url: string, readonly reason: string) {
    super(`Redis does not answer at ${url} (${reason})`);
  }
}

/** BullMQ needs maxRetriesPerRequest null on connections that block (workers, queue events). */
export function createRedis(redisUrl: string, options: { blocking?: boolean } = {}): Redis {
  const redis = new Redis(redisUrl, {
    maxRetriesPerRequest: options.blocking ? null : 3,
    enableOfflineQueue: true,
    lazyConnect: false,
  });
  // Long-running processes reconnect by themselves; errors surface through failing commands.
  redis.on('error', () => {});
  return redis;
}

/**
 * The API's connection for per-request commands (the rate limit). A command never waits for
 * Redis: while disconnected it fails at once (no offline queue, no retries) and a connected
 * Redis that does not answer fails it after `commandTimeoutMs`; the client reconnects by itself.
 */
export function createApiRedis(redisUrl: string, options: { commandTimeoutMs?: number } = {}): Redis {
  const redis = new Redis(redisUrl, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    commandTimeout: options.commandTimeoutMs ?? 250,
    connectTimeout: 2000,
  });
  redis.on('error', () => {});
  return redis;
}

/** Whether `redis` becomes ready within timeoutMs (never throws). */
export async function redisReady(redis: Redis, timeoutMs: number): Promise<boolean> {
  if (redis.status === 'ready') return true;
  return new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => done(false), timeoutMs);
    const onReady = () => done(true);
    function done(ready: boolean): void {
      clearTimeout(timer);
      redis.off('ready', onReady);
      resolve(ready);
    }
    redis.once('ready', onReady);
  });
}

/**
 * For short-lived commands: connects and pings within timeoutMs, else throws a
 * RedisUnavailableError naming Redis, its URL and why; later connection losses fail commands instead of retrying forever.
 */
export async function connectRedis(redisUrl: string, timeoutMs = 5000): Promise<Redis> {
  const redis = new Redis(redisUrl, {
    lazyConnect: true,
    connectTimeout: timeoutMs,
    maxRetriesPerRequest: 1,
    retryStrategy: (attempt) => (attempt <= 3 ? attempt * 200 : null),
  });
  let lastError = 'no answer';
  redis.on('error', (err: Error) => (lastError = err.message || lastError));
  try {
    await Promise.race([
      redis.connect().then(() => redis.ping()),
      new Promise((_, reject) => setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs).unref()),
    ]);
    return redis;
  } catch (err) {
    redis.disconnect();
    // The connection error (ECONNREFUSED, ...) says more than the promise's 'Connection is closed'.
    throw new RedisUnavailableError(redactUrl(redisUrl), lastError !== 'no answer' ? lastError : (err as Error).message);
  }
}
