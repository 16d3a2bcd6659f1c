import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Volume 1, "Rate limit": every key on every plan, 1,000 requests per 60 seconds. */
export const RATE_LIMIT_PER_WINDOW = 1000;
export const RATE_LIMIT_WINDOW_MS = 60_000;

/**
 * An exact sliding-window log, one Redis list per API key holding the times (ms) of its last
 * `limit` admitted requests, newest at the head. A request at `now` is admitted iff the
 * limit-th most recent admission is at or before `now - window`, i.e. iff fewer than `limit`
 * requests were admitted in (now - window, now]; so no window of that length ever holds more.
 *
 * Why it is exact across API processes: every decision is made inside this script, and Redis runs
 * a script atomically, so the read, the decision and the write of each request, whichever
 * process sent it, are serialised on the one list; the clock is Redis's own TIME, so processes
 * whose clocks disagree still append in order. Each step is O(1) (push/pop/index at the list's
 * ends, a list of at most `limit` entries in a compact quicklist), whatever the limit.
 *
 * One call decides a batch: KEYS are the subjects of the requests one API process received in the
 * same event-loop turn, in arrival order (a key may repeat), decided one after another at the
 * same `now`. Batching changes no decision (a batch is as atomic as each of its requests); it
 * spreads the script's fixed cost, which is most of it, over the batch.
 *
 * Refused requests are not logged (a client hammering while limited gets in again as soon as its
 * oldest admission leaves the window). ARGV[3], when given, replaces TIME (tests' clocks).
 * Returns one integer per key: 0 when admitted, else the ms until a slot frees.
 */
const SCRIPT = `
local now = tonumber(ARGV[3])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local limit = tonumber(ARGV[1])
local window = tonumber(ARGV[2])
local out = {}
for i, key in ipairs(KEYS) do
  local wait = 0
  if redis.call('LPUSH', key, now) > limit then
    local edge = tonumber(redis.call('LINDEX', key, limit))
    if edge > now - window then
      redis.call('LPOP', key)
      wait = edge + window - now
    else
      redis.call('LTRIM', key, 0, limit - 1)
    end
  end
  if wait == 0 then redis.call('PEXPIRE', key, window) end
  out[i] = wait
end
return out
`;
const SCRIPT_SHA = createHash('sha1').update(SCRIPT).digest('hex');

export interface RateLimitDecision {
  allowed: boolean;
  /** 0 when allowed; else ms until the key may make its next request. */
  retryAfterMs: number;
}

export interface RateLimiterOptions {
  redis: Redis;
  /** Redis key prefix (REDIS_PREFIX): isolates stacks and test runs sharing one Redis. */
  prefix: string;
  limit?: number;
  windowMs?: number;
  /** Epoch ms; when omitted the script reads Redis's clock, which every API process shares. */
  now?: () => number;
}

export interface RateLimiter {
  readonly limit: number;
  readonly windowMs: number;
  /** Records one request of `subject` if it is within the limit. Rejects only on Redis faults. */
  hit(subject: string): Promise<RateLimitDecision>;
}

const ALLOWED: RateLimitDecision = Object.freeze({ allowed: true, retryAfterMs: 0 });
/** Bounds one script run (Redis serves nobody else meanwhile): about 1 µs per request in it. */
const MAX_BATCH = 256;

interface Pending {
  key: string;
  resolve(decision: RateLimitDecision): void;
  reject(err: unknown): void;
}

export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { redis, now } = options;
  const limit = options.limit ?? RATE_LIMIT_PER_WINDOW;
  const windowMs = options.windowMs ?? RATE_LIMIT_WINDOW_MS;
  if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`rate limit must be a positive integer, got ${limit}`);
  if (!Number.isInteger(windowMs) || windowMs < 1) throw new RangeError(`rate-limit window must be a positive integer of ms, got ${windowMs}`);
  const keyPrefix = `${options.prefix}:rate-limit:`;
  const limitArg = String(limit);
  const windowArg = String(windowMs);
  let batch: Pending[] = [];

  async function run(keys: string[]): Promise<unknown> {
    const args = now === undefined ? [limitArg, windowArg] : [limitArg, windowArg, String(Math.floor(now()))];
    try {
      return await redis.evalsha(SCRIPT_SHA, keys.length, ...keys, ...args);
    } catch (err) {
      // A Redis that lost its script cache (restart, SCRIPT FLUSH): EVAL runs and caches it again.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(SCRIPT, keys.length, ...keys, ...args);
    }
  }

  function flush(): void {
    const pending = batch;
    if (pending.length === 0) return;
    batch = [];
    run(pending.map((p) => p.key)).then(
      (reply) => {
        const waits = reply as number[];
        for (let i = 0; i < pending.length; i++) {
          const retryAfterMs = Number(waits[i]);
          pending[i]!.resolve(retryAfterMs === 0 ? ALLOWED : { allowed: false, retryAfterMs });
        }
      },
      (err: unknown) => {
        for (const p of pending) p.reject(err);
      },
    );
  }

  return {
    limit,
    windowMs,
    hit(subject) {
      return new Promise<RateLimitDecision>((resolve, reject) => {
        // Requests of the same turn go out together once the turn's I/O callbacks have run.
        if (batch.length === 0) setImmediate(flush);
        batch.push({ key: keyPrefix + subject, resolve, reject });
        if (batch.length >= MAX_BATCH) flush();
      });
    },
  };
}
