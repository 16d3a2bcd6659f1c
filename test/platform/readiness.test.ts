import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../api/server.ts';
import { loadConfig } from '../../lib/config.ts';
import { createPool } from '../../lib/postgres.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { publishTextRelease } from '../support/release-probe.ts';
import { tcpRelay, type TcpRelay } from '../support/tcp-relay.ts';

/** What the issue promises: 503 within 10 s of a dependency going away, 200 within 10 s of its return. */
const PROMISE_MS = 10_000;

let env: TestEnv;
let pool: pg.Pool;
let postgres: TcpRelay;
let redis: TcpRelay;
let server: RunningServer;

const via = (url: string, relay: TcpRelay) => {
  const u = new URL(url);
  u.hostname = '127.0.0.1';
  u.port = String(relay.port);
  return u.toString();
};

async function admin(path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${server.adminUrl}${path}`);
  return { status: res.status, body: await res.json() as Record<string, unknown> };
}

/** Polls /readyz every 100 ms until it answers `status`; the milliseconds that took. */
async function readyzBecomes(status: number): Promise<number> {
  const began = Date.now();
  while ((await admin('/readyz')).status !== status) {
    if (Date.now() - began > PROMISE_MS + 5000) throw new Error(`/readyz did not become ${status} within ${PROMISE_MS + 5000} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return Date.now() - began;
}

beforeAll(async () => {
  env = await createTestEnv('readiness');
  pool = createPool(env.config.databaseUrl, 2);
  const db = new URL(env.config.databaseUrl);
  const cache = new URL(env.config.redisUrl);
  postgres = await tcpRelay(db.hostname, Number(db.port || 5432));
  redis = await tcpRelay(cache.hostname, Number(cache.port || 6379));
  server = await startServer(loadConfig({
    ...env.env,
    DATABASE_URL: via(env.config.databaseUrl, postgres),
    REDIS_URL: via(env.config.redisUrl, redis),
  }), { logger: false });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await postgres?.close();
  await redis?.close();
  await pool?.end();
  await env?.cleanup();
});

describe('liveness and readiness on the admin port', () => {
  it('is live and ready with Postgres and Redis answering and nothing enabled', async () => {
    expect(await admin('/livez')).toEqual({ status: 200, body: { status: 'live' } });
    expect(await admin('/readyz')).toEqual({ status: 200, body: { status: 'ready' } });
    const health = await admin('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toMatchObject({ ready: true, reasons: [], postgres: true, redis: true });
    expect(health.body.checks).toMatchObject({ postgres: { ok: true, roundTripMs: expect.any(Number) }, redis: { ok: true } });
  });

  it.each(['redis', 'postgres'] as const)('goes 503 within 10 s of %s becoming unreachable, and 200 within 10 s of its return', async (name) => {
    const relay = name === 'redis' ? redis : postgres;
    await relay.cut();
    const down = await readyzBecomes(503);
    expect((await admin('/readyz')).body).toEqual({ status: 'not ready', reasons: [expect.stringMatching(new RegExp(`^${name} does not answer`))] });
    const health = await admin('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ ready: false, redis: name !== 'redis', postgres: name !== 'postgres' });
    expect((await admin('/livez')).status).toBe(200);
    await relay.restore();
    const up = await readyzBecomes(200);
    console.log(`${name}: not ready after ${down} ms, ready again ${up} ms after its return`);
    expect(down).toBeLessThanOrEqual(PROMISE_MS);
    expect(up).toBeLessThanOrEqual(PROMISE_MS);
  }, 60_000);

  it('is not ready while an enabled release cannot be served, and names the kind', async () => {
    // A release of the transit kind holding no transit database: it verifies, but cannot be opened.
    const broken = await publishTextRelease({ pool, releasesDir: env.config.releasesDir }, 'transit', 'not a database');
    await enableRelease(pool, broken.id, 'test');
    await readyzBecomes(503);
    const { body } = await admin('/readyz');
    expect(body.reasons).toEqual([expect.stringMatching(new RegExp(`^transit: release ${broken.id} could not be opened`))]);
    const health = await admin('/healthz');
    expect(health.status).toBe(503);
    expect(health.body).toMatchObject({ status: 'degraded', ready: false, postgres: true, redis: true });
  }, 30_000);
});
