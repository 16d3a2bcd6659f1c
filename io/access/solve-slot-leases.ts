import { createHash, randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/**
 * Optimization rule 8: at most `limit` solves at once per payer (account, or `key:<id>`), across
 * every API process. One Redis sorted set per payer holds its leases, scored by the epoch ms each
 * expires at. A held lease is renewed by a heartbeat; a process that dies stops renewing, so its
 * slots free themselves within the lease TTL.
 *
 * Acquiring is one script (atomic in Redis, so racing acquires from any process never grant more
 * than `limit`): drop expired leases, then add ours if fewer than `limit` remain, else answer the
 * ms until the earliest lease expires. ARGV[4], when given, replaces Redis's TIME (tests' clocks).
 */
const ACQUIRE = `
local now = tonumber(ARGV[4])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local limit = tonumber(ARGV[1])
local ttl = tonumber(ARGV[2])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZCARD', KEYS[1]) < limit then
  redis.call('ZADD', KEYS[1], now + ttl, ARGV[3])
  redis.call('PEXPIRE', KEYS[1], ttl)
  return 0
end
local earliest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
return math.max(1, tonumber(earliest[2]) - now)
`;

/**
 * Renewing puts the lease back even if it had expired meanwhile (a process stalled past the TTL):
 * the solve is still running, so it still counts, and later acquires wait for it.
 */
const RENEW = `
local now = tonumber(ARGV[3])
if now == nil then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local ttl = tonumber(ARGV[1])
redis.call('ZADD', KEYS[1], now + ttl, ARGV[2])
redis.call('PEXPIRE', KEYS[1], ttl)
return 1
`;

const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');
const SCRIPTS = { acquire: { text: ACQUIRE, sha: sha1(ACQUIRE) }, renew: { text: RENEW, sha: sha1(RENEW) } };

export const SOLVE_LEASE_TTL_MS = 15_000;
export const SOLVE_HEARTBEAT_MS = 5_000;

export interface SolveSlotsOptions {
  redis: Redis;
  /** Redis key prefix (REDIS_PREFIX): isolates stacks and test runs sharing one Redis. */
  prefix: string;
  leaseTtlMs?: number;
  /** How often a held lease is renewed; well under the TTL so one late beat loses nothing. */
  heartbeatMs?: number;
  /** Epoch ms; when omitted the scripts read Redis's clock, which every API process shares. */
  now?: () => number;
}

export type SlotAcquisition =
  | { ok: true; release(): Promise<void> }
  | { ok: false; retryAfterSeconds: number };

export interface SolveSlots {
  readonly leaseTtlMs: number;
  /**
   * Takes one of the payer's `limit` slots, or answers when to retry: whole seconds until the
   * earliest lease could expire (at least 1). Rejects only on Redis faults. `release()` is
   * idempotent and must be called when the solve ends, whatever its outcome.
   */
  acquire(payer: string, limit: number): Promise<SlotAcquisition>;
}

export function createSolveSlots(options: SolveSlotsOptions): SolveSlots {
  const { redis, now } = options;
  const leaseTtlMs = options.leaseTtlMs ?? SOLVE_LEASE_TTL_MS;
  const heartbeatMs = options.heartbeatMs ?? SOLVE_HEARTBEAT_MS;
  if (!Number.isInteger(leaseTtlMs) || leaseTtlMs < 1) throw new RangeError(`lease TTL must be a positive integer of ms, got ${leaseTtlMs}`);
  if (!Number.isInteger(heartbeatMs) || heartbeatMs < 1) throw new RangeError(`heartbeat must be a positive integer of ms, got ${heartbeatMs}`);
  const keyPrefix = `${options.prefix}:solve-slots:`;
  const clock = () => (now === undefined ? [] : [String(Math.floor(now()))]);

  async function run(script: { text: string; sha: string }, key: string, args: string[]): Promise<unknown> {
    try {
      return await redis.evalsha(script.sha, 1, key, ...args);
    } catch (err) {
      // A Redis that lost its script cache (restart, SCRIPT FLUSH): EVAL runs and caches it again.
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return redis.eval(script.text, 1, key, ...args);
    }
  }

  return {
    leaseTtlMs,
    async acquire(payer, limit) {
      if (!Number.isInteger(limit) || limit < 1) throw new RangeError(`solve slots must be a positive integer, got ${limit}`);
      const key = keyPrefix + payer;
      const lease = randomBytes(12).toString('base64url');
      const waitMs = Number(await run(SCRIPTS.acquire, key, [String(limit), String(leaseTtlMs), lease, ...clock()]));
      if (waitMs > 0) return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      // A missed beat is harmless (the next one, or the TTL, settles it).
      let beating: Promise<unknown> = Promise.resolve();
      const heartbeat = setInterval(() => {
        beating = run(SCRIPTS.renew, key, [String(leaseTtlMs), lease, ...clock()]).catch(() => {});
      }, heartbeatMs);
      heartbeat.unref();
      let released: Promise<void> | null = null;
      return {
        ok: true,
        release() {
          released ??= (async () => {
            clearInterval(heartbeat);
            // A renewal still in flight would put the lease back after its removal.
            await beating;
            // Not removed (Redis down): the lease expires within the TTL by itself.
            await redis.zrem(key, lease).catch(() => {});
          })();
          return released;
        },
      };
    },
  };
}
