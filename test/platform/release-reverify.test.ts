import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildAdmin } from '../../api/admin/index.ts';
import { HealthProbe } from '../../api/admin/health-probe.ts';
import { createApiRedis } from '../../lib/redis.ts';
import { buildApp } from '../../api/app.ts';
import { startServer } from '../../api/server.ts';
import { loadConfig } from '../../lib/config.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ReleaseStore, type FullVerify, type KindOpener, type KindStatus, type ReaderLog, type VerifyStatus } from '../../releases/reader.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { publishTextRelease, waitFor } from '../support/release-probe.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';

/** A test-only kind whose resource is the text of the release's data.txt, read at open. */
function probeOpener(kind: string): KindOpener<string> {
  return {
    kind,
    open: (dir) => readFile(path.join(dir, 'data.txt'), 'utf8'),
    async close() {},
  };
}

let env: TestEnv;
let pool: pg.Pool;

/** Every file's mtime sits on a whole second, so putting it back after a change is exact. */
const MTIME_S = 1_750_000_000;

async function publishProbe(kind: string, text: string): Promise<RegisteredRelease> {
  const release = await publishTextRelease({ pool, releasesDir: env.config.releasesDir }, kind, text);
  await utimes(path.join(release.path, 'data.txt'), MTIME_S, MTIME_S);
  return release;
}

/** Rewrites data.txt in place with as many bytes, then puts its mtime back: the cheap check sees nothing. */
async function corruptInPlace(release: RegisteredRelease, text: string): Promise<void> {
  const file = path.join(release.path, 'data.txt');
  await writeFile(file, text);
  await utimes(file, MTIME_S, MTIME_S);
}

function newStore(options: { reverifyMs?: number; log?: ReaderLog } = {}): ReleaseStore {
  return new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs: 600_000, ...options });
}

function recordingLog(lines: string[]): ReaderLog {
  const keep = (msg: string) => void lines.push(msg);
  return { info: (_o, msg) => keep(msg), warn: (_o, msg) => keep(msg), error: (_o, msg) => keep(msg) };
}

interface Health {
  status: string;
  ready: boolean;
  reasons: string[];
  postgres: boolean;
  releases: Record<string, KindStatus>;
  fullVerify: VerifyStatus;
}

beforeAll(async () => {
  env = await createTestEnv('release_reverify');
  pool = createPool(env.config.databaseUrl, 4);
});
afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
});

describe('background full re-verify behind the API and /healthz', () => {
  let store: ReleaseStore;
  let app: FastifyInstance;
  let admin: FastifyInstance;
  let health: HealthProbe;
  let redis: ReturnType<typeof createApiRedis>;
  let key: string;
  let alpha: RegisteredRelease;
  const logLines: string[] = [];

  beforeAll(async () => {
    store = newStore({ log: recordingLog(logLines) });
    store.register(probeOpener('alpha'));
    store.register(probeOpener('beta'));
    alpha = await publishProbe('alpha', 'alpha-1');
    await enableRelease(pool, alpha.id, 'test');
    await enableRelease(pool, (await publishProbe('beta', 'beta-1')).id, 'test');
    await store.start();
    app = await buildApp({ config: env.config, pool, releases: store, logger: false });
    app.get<{ Params: { kind: string } }>('/test/probe/:kind', async (request) =>
      request.server.releases.use<string, { text: string }>(request.params.kind, async (text) => ({ text })));
    redis = createApiRedis(env.config.redisUrl);
    health = new HealthProbe({ pool, redis });
    await health.start();
    admin = buildAdmin({ releases: store, health });
    key = (await createKey(pool, {})).key;
  });
  afterAll(async () => {
    await app?.close();
    await admin?.close();
    health?.stop();
    redis?.disconnect();
    await store?.stop();
  });

  const get = (kind: string) => app.inject({ url: `/test/probe/${kind}`, headers: { authorization: `Bearer ${key}` } });
  const healthz = async () => (await admin.inject({ url: '/healthz' })).json<Health>();

  it('/healthz keeps its fields and shows the full verify made at open', async () => {
    const body = await healthz();
    expect((await admin.inject({ url: '/readyz' })).json()).toEqual({ status: 'ready' });
    expect(body).toMatchObject({ status: 'ok', ready: true, reasons: [], postgres: true, redis: true, releases: { alpha: { id: alpha.id, state: 'ready' }, beta: { state: 'ready' } } });
    expect(body.fullVerify.intervalSeconds).toBe(0);
    expect(body.fullVerify.kinds.alpha).toMatchObject({ id: alpha.id, result: 'ok', trigger: 'open' });
    expect(body.fullVerify.kinds.alpha?.problems).toBeUndefined();
  });

  it('a re-verify of intact files keeps serving and records its time and result', async () => {
    const before = Date.now();
    await store.reverifyNow();
    const verify = store.verification().kinds.alpha as FullVerify;
    expect(verify).toMatchObject({ id: alpha.id, result: 'ok', trigger: 'reverify' });
    expect(Date.parse(verify.at)).toBeGreaterThanOrEqual(before - 1);
    expect((await get('alpha')).json()).toEqual({ text: 'alpha-1' });
  });

  it('a file corrupted in place with its mtime put back is missed by the cheap check but not by the re-verify', async () => {
    await corruptInPlace(alpha, 'alphX-1');
    await store.refresh('alpha');
    expect(store.status().alpha).toEqual({ id: alpha.id, state: 'ready' });

    await store.reverifyNow();
    const res = await get('alpha');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual({ error: 'alpha data temporarily unavailable', code: 'service_unavailable', retryable: true });
    expect((await get('beta')).statusCode).toBe(200);
    expect(logLines.some((l) => l.startsWith(`release ${alpha.id} fails verification (background re-verify): data.txt: checksum differs`))).toBe(true);

    const body = await healthz();
    expect(body.status).toBe('degraded');
    expect(body.ready).toBe(false);
    expect(body.reasons).toEqual([expect.stringMatching(/^alpha: release .* fails verification \(background re-verify\)/)]);
    const readyz = await admin.inject({ url: '/readyz' });
    expect(readyz.statusCode).toBe(503);
    expect(readyz.json()).toEqual({ status: 'not ready', reasons: body.reasons });
    expect(body.releases.alpha).toMatchObject({ id: null, state: 'unavailable', reason: expect.stringContaining('background re-verify') });
    expect(body.fullVerify.kinds.alpha).toMatchObject({
      id: alpha.id, result: 'failed', trigger: 'reverify', problems: ['data.txt: checksum differs from the manifest'],
    });
    expect(body.fullVerify.kinds.beta).toMatchObject({ result: 'ok', trigger: 'reverify' });
  });

  it('stays refused on later polls without hashing again while its files look the same', async () => {
    const failed = store.verification().kinds.alpha;
    await store.refresh('alpha');
    expect(store.status().alpha?.state).toBe('unavailable');
    expect(store.verification().kinds.alpha).toEqual(failed);
  });

  it('is served again after a repair in place and an enable of the same release', async () => {
    await expect(enableRelease(pool, alpha.id, 'test')).rejects.toThrow(/fails verification/);
    await corruptInPlace(alpha, 'alpha-1');
    await store.refresh('alpha');
    expect(store.status().alpha?.state).toBe('unavailable'); // unchanged fingerprint: the poll alone does not retry

    await enableRelease(pool, alpha.id, 'test');
    await waitFor('the re-enabled release', () => store.status().alpha?.state === 'ready', 2000);
    expect((await get('alpha')).json()).toEqual({ text: 'alpha-1' });
    expect((await healthz()).fullVerify.kinds.alpha).toMatchObject({ id: alpha.id, result: 'ok', trigger: 'open' });
  });

  it('a refused release is replaced by enabling another one', async () => {
    await corruptInPlace(alpha, 'alphY-1');
    await store.reverifyNow();
    expect(store.status().alpha?.state).toBe('unavailable');
    const next = await publishProbe('alpha', 'alpha-2');
    await enableRelease(pool, next.id, 'test');
    await waitFor('the next release', () => store.status().alpha?.id === next.id, 2000);
    expect((await get('alpha')).json()).toEqual({ text: 'alpha-2' });
    expect(store.verification().kinds.alpha).toMatchObject({ id: next.id, result: 'ok', trigger: 'open' });
  });
});

describe('the re-verify timer', () => {
  it('runs on its own every interval and makes a corrupted kind unavailable', async () => {
    const release = await publishProbe('timed', 'timed-1');
    await enableRelease(pool, release.id, 'test');
    const store = newStore({ reverifyMs: 150 });
    store.register(probeOpener('timed'));
    await store.start();
    try {
      expect(store.verification().intervalSeconds).toBe(0.15);
      await waitFor('a background pass', () => store.verification().kinds.timed?.trigger === 'reverify', 3000);
      await corruptInPlace(release, 'timeX-1');
      await waitFor('the corruption to be found', () => store.status().timed?.state === 'unavailable', 3000);
      expect(store.status().timed?.reason).toMatch(/fails verification \(background re-verify\): data\.txt: checksum differs/);
    } finally {
      await store.stop();
    }
  });

  it('stops with the store', async () => {
    const release = await publishProbe('stopping', 'stopping-1');
    await enableRelease(pool, release.id, 'test');
    const lines: string[] = [];
    const store = newStore({ reverifyMs: 50, log: recordingLog(lines) });
    store.register(probeOpener('stopping'));
    await store.start();
    const passes = () => lines.filter((l) => l === 'release re-verified').length;
    await waitFor('two passes', () => passes() >= 2, 3000);
    await store.stop();
    const after = passes();
    await new Promise((r) => setTimeout(r, 300));
    expect(passes()).toBe(after);
    await store.reverifyNow();
    expect(passes()).toBe(after);
  });

  it('a pass running when the store stops is abandoned and its result dropped', async () => {
    const release = await publishProbe('abandoned', 'abandoned-1');
    await enableRelease(pool, release.id, 'test');
    const store = newStore();
    store.register(probeOpener('abandoned'));
    await store.start();
    await corruptInPlace(release, 'abandoneX-1');
    const pass = store.reverifyNow();
    await store.stop();
    await pass;
    expect(store.verification().kinds.abandoned).toMatchObject({ id: release.id, result: 'ok', trigger: 'open' });
    expect(store.status().abandoned).toEqual({ id: null, state: 'unavailable', reason: 'stopped' });
  });
});

describe('RELEASE_REVERIFY_INTERVAL_SECONDS', () => {
  it('defaults to 6 hours, is off in test environments and refuses negative values', () => {
    expect(loadConfig({}).releaseReverifyMs).toBe(6 * 3600 * 1000);
    expect(env.config.releaseReverifyMs).toBe(0);
    expect(() => loadConfig({ RELEASE_REVERIFY_INTERVAL_SECONDS: '-5' })).toThrow(/RELEASE_REVERIFY_INTERVAL_SECONDS/);
  });

  it('reaches the store of canmap serve and its /healthz', async () => {
    const server = await startServer(loadConfig({ ...env.env, RELEASE_REVERIFY_INTERVAL_SECONDS: '3600' }));
    try {
      const body = await (await fetch(`${server.adminUrl}/healthz`)).json() as Health;
      expect(body.fullVerify.intervalSeconds).toBe(3600);
      expect(Object.keys(body.fullVerify.kinds).sort()).toEqual(Object.keys(body.releases).sort());
    } finally {
      await server.close();
    }
  });
});

describe('releases/ imports', () => {
  it('have no circle (the reader and its listener included)', async () => {
    const dir = repoPath('releases');
    const graph = new Map<string, string[]>();
    for (const name of (await readdir(dir)).filter((n) => n.endsWith('.ts'))) {
      const source = await readFile(path.join(dir, name), 'utf8');
      graph.set(name, [...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom '\.\/([\w.-]+\.ts)'/gms)].map((m) => m[1]!));
    }
    expect(graph.get('reader-listener.ts')).not.toContain('reader.ts');
    const circles: string[] = [];
    const visit = (file: string, trail: string[]) => {
      if (trail.includes(file)) {
        circles.push([...trail.slice(trail.indexOf(file)), file].join(' → '));
        return;
      }
      for (const next of graph.get(file) ?? []) visit(next, [...trail, file]);
    };
    for (const file of graph.keys()) visit(file, []);
    expect(circles).toEqual([]);
  });
});
