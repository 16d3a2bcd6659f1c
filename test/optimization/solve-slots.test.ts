import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSolveSlotGate } from '../../api/access/solve-slot-gate.ts';
import { Refusal } from '../../lib/errors.ts';
import { createSolveSlots, type SlotAcquisition, type SolveSlotsOptions } from '../../io/access/solve-slot-leases.ts';
import type { KeyRecord } from '../../lib/keys.ts';
import { createApiRedis, redisReady } from '../../lib/redis.ts';
import { OPTIMIZATION_LIMITS } from '../../schemas/plans.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let redis: Redis;
let payers = 0;
const payer = () => `acct-${payers++}`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const slots = (over: Partial<SolveSlotsOptions> = {}) => createSolveSlots({ redis, prefix: env.config.redisPrefix, ...over });
const held = (a: SlotAcquisition) => (a.ok ? a : expect.fail('expected a slot'));

beforeAll(async () => {
  env = await createTestEnv('solve_slots');
  redis = createApiRedis(env.config.redisUrl);
  expect(await redisReady(redis, 5000)).toBe(true);
});

afterAll(async () => {
  redis?.disconnect();
  await env?.cleanup();
});

describe('solve slots (rule 8)', () => {
  it('plan table: hobby 1, indie 2, growth 2 at once', () => {
    expect(Object.fromEntries(Object.entries(OPTIMIZATION_LIMITS).map(([plan, l]) => [plan, l.solvesAtOnce]))).toEqual({ hobby: 1, indie: 2, growth: 2 });
    expect(OPTIMIZATION_LIMITS.hobby).toEqual({ shipments: 25, vehicles: 5, locations: 100, longestSolveSeconds: 10, solvesAtOnce: 1 });
    expect(OPTIMIZATION_LIMITS.indie).toEqual({ shipments: 500, vehicles: 50, locations: 500, longestSolveSeconds: 30, solvesAtOnce: 2 });
    expect(OPTIMIZATION_LIMITS.growth).toEqual({ shipments: 2000, vehicles: 200, locations: 1000, longestSolveSeconds: 60, solvesAtOnce: 2 });
  });

  it('limit 1: a second solve waits for the first to release; payers are apart', async () => {
    const s = slots();
    const p = payer();
    const first = held(await s.acquire(p, 1));
    const second = await s.acquire(p, 1);
    expect(second.ok).toBe(false);
    if (!second.ok) expect(second.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    if (!second.ok) expect(second.retryAfterSeconds).toBeLessThanOrEqual(15);
    expect((await s.acquire(payer(), 1)).ok).toBe(true);
    await first.release();
    await first.release();
    const third = held(await s.acquire(p, 1));
    await third.release();
  });

  it('limit 2: two at once, the third refused, one release frees one slot', async () => {
    const s = slots();
    const p = payer();
    const a = held(await s.acquire(p, 2));
    const b = held(await s.acquire(p, 2));
    expect((await s.acquire(p, 2)).ok).toBe(false);
    await a.release();
    const c = held(await s.acquire(p, 2));
    expect((await s.acquire(p, 2)).ok).toBe(false);
    await Promise.all([b.release(), c.release()]);
  });

  it('a lease nobody renews (its process died) frees itself after the TTL; Retry-After counts down to it', async () => {
    const s = slots({ leaseTtlMs: 1_500, heartbeatMs: 60_000 });
    const p = payer();
    held(await s.acquire(p, 1));
    const refused = await s.acquire(p, 1);
    expect(refused).toEqual({ ok: false, retryAfterSeconds: 2 });
    await sleep(1_700);
    const after = held(await s.acquire(p, 1));
    await after.release();
  });

  it('a held lease is kept alive by its heartbeat past the TTL', async () => {
    const s = slots({ leaseTtlMs: 400, heartbeatMs: 100 });
    const p = payer();
    const lease = held(await s.acquire(p, 1));
    await sleep(1_200);
    expect((await s.acquire(p, 1)).ok).toBe(false);
    await lease.release();
    // No renewal in flight brings it back after the release.
    await sleep(250);
    const next = held(await s.acquire(p, 1));
    await next.release();
  });

  it('racing acquires from several clients never grant more than the limit', async () => {
    const others = Array.from({ length: 4 }, () => createApiRedis(env.config.redisUrl));
    try {
      for (const r of others) expect(await redisReady(r, 5000)).toBe(true);
      const clients = others.map((r) => createSolveSlots({ redis: r, prefix: env.config.redisPrefix }));
      for (const limit of [1, 2]) {
        const p = payer();
        const results = await Promise.all(Array.from({ length: 40 }, (_, i) => clients[i % clients.length]!.acquire(p, limit)));
        const granted = results.filter((r) => r.ok);
        expect(granted.length).toBe(limit);
        await Promise.all(granted.map((g) => g.ok && g.release()));
      }
    } finally {
      for (const r of others) r.disconnect();
    }
  });

  it('a test clock decides expiry through the script (ARGV time)', async () => {
    let now = 1_000_000;
    const s = slots({ leaseTtlMs: 10_000, now: () => now });
    const p = payer();
    held(await s.acquire(p, 1));
    now += 4_000;
    expect(await s.acquire(p, 1)).toEqual({ ok: false, retryAfterSeconds: 6 });
    now += 6_000;
    expect((await s.acquire(p, 1)).ok).toBe(true);
  });
});

describe('the route\'s gate (api/access/solve-slots.ts)', () => {
  const key = (over: Partial<KeyRecord>): KeyRecord => ({ id: `key_${payers++}`, accountId: null, plan: null, addons: [], allowedOrigins: [], ...over });
  const log = { warn() {} } as never;

  it('uses the plan\'s solves at once (a key without an account: growth\'s) and answers 429 RESOURCE_EXHAUSTED', async () => {
    const gate = createSolveSlotGate(slots());
    const hobby = key({ accountId: payer(), plan: 'hobby' });
    const release = await gate.enter(hobby, log);
    const busy = await gate.enter(hobby, log).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(Refusal);
    expect((busy as Refusal).statusCode).toBe(429);
    expect((busy as Refusal).body()).toMatchObject({ code: 'RESOURCE_EXHAUSTED', status: 'RESOURCE_EXHAUSTED' });
    expect(Number((busy as Refusal).headers['retry-after'])).toBeGreaterThanOrEqual(1);
    await release();
    const founder = key({});
    const both = [await gate.enter(founder, log), await gate.enter(founder, log)];
    await expect(gate.enter(founder, log)).rejects.toBeInstanceOf(Refusal);
    for (const r of both) await r();
  });

  it('fails open when Redis does not answer; no Redis at all is no limit', async () => {
    const dead = createApiRedis('redis://127.0.0.1:1');
    try {
      const warnings: unknown[] = [];
      const gate = createSolveSlotGate(createSolveSlots({ redis: dead, prefix: env.config.redisPrefix }));
      const k = key({ accountId: payer(), plan: 'hobby' });
      const releases = [await gate.enter(k, { warn: (o: unknown) => warnings.push(o) } as never), await gate.enter(k, log)];
      expect(warnings).toHaveLength(1);
      for (const r of releases) await r();
    } finally {
      dead.disconnect();
    }
    const none = createSolveSlotGate(null);
    const k = key({ plan: 'hobby' });
    await Promise.all([none.enter(k, log), none.enter(k, log)]);
  });
});
