import { createHash } from 'node:crypto';
import { appendFile, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../api/app.ts';
import { createKey } from '../lib/keys.ts';
import { createPool } from '../lib/postgres.ts';
import { publishRelease } from '../releases/publish.ts';
import { ReleaseStore, type KindOpener } from '../releases/reader.ts';
import { enableRelease, RELEASE_ENABLED_CHANNEL, type RegisteredRelease } from '../releases/registry.ts';
import { createTestEnv, type TestEnv } from './support/env.ts';

/** A test-only kind: its resource is the text of the release's data.txt, read at open. */
interface Probe {
  text: string;
  closed: boolean;
}

function probeOpener(kind: string, events: string[]): KindOpener<Probe> {
  return {
    kind,
    async open(dir, manifest) {
      events.push(`open ${manifest.id}`);
      return { text: await readFile(path.join(dir, 'data.txt'), 'utf8'), closed: false };
    },
    async close(resource) {
      resource.closed = true;
      events.push(`close ${resource.text}`);
    },
  };
}

let env: TestEnv;
let pool: pg.Pool;
let counter = 0;

async function publishProbe(kind: string, text: string): Promise<RegisteredRelease> {
  counter += 1;
  const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, {
    kind,
    builderVersion: 'probe-1',
    schemaVersion: 1,
    inputs: [{ name: 'text', source: 'memory', sha256: createHash('sha256').update(`${text}-${counter}`).digest('hex') }],
    async build(dir) {
      await writeFile(path.join(dir, 'data.txt'), text);
      return { stats: { length: text.length } };
    },
  });
  return release;
}

async function waitFor(what: string, check: () => boolean, timeoutMs = 5000): Promise<number> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  return Date.now() - started;
}

function newStore(pollMs: number): ReleaseStore {
  return new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs });
}

const read = (store: ReleaseStore, kind: string) => store.use<Probe, string>(kind, async (probe) => probe.text);

beforeAll(async () => {
  env = await createTestEnv('release_reader');
  pool = createPool(env.config.databaseUrl, 4);
});
afterAll(async () => {
  await pool?.end();
  await env?.cleanup();
});

describe('ReleaseStore with LISTEN/NOTIFY (poll far away)', () => {
  let store: ReleaseStore;
  const events: string[] = [];
  beforeAll(async () => {
    store = newStore(600_000);
    store.register(probeOpener('notified', events));
    await store.start();
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('starts unavailable and throws the 503 catalog error', async () => {
    expect(store.status()).toEqual({ notified: { id: null, state: 'unavailable', reason: 'no release is enabled' } });
    await expect(read(store, 'notified')).rejects.toMatchObject({
      statusCode: 503,
      headers: { 'retry-after': '5' },
      code: 'service_unavailable',
      extra: { retryable: true },
    });
  });

  it('serves an enabled release within 2 s, without a restart', async () => {
    const release = await publishProbe('notified', 'first');
    const enabledAt = Date.now();
    await enableRelease(pool, release.id, 'test');
    await waitFor('the enable', () => store.status().notified?.id === release.id, 2000);
    expect(Date.now() - enabledAt).toBeLessThan(2000);
    expect(await read(store, 'notified')).toBe('first');
  });

  it('swaps to the next release while an in-flight use on the old one finishes before it is closed', async () => {
    const next = await publishProbe('notified', 'second');
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    let inFlightSaw: { text: string; closed: boolean } | undefined;
    const inFlight = store.use<Probe, string>('notified', async (probe) => {
      await held;
      inFlightSaw = { text: probe.text, closed: probe.closed };
      return probe.text;
    });

    await enableRelease(pool, next.id, 'test');
    await waitFor('the swap', () => store.status().notified?.id === next.id, 2000);
    expect(await read(store, 'notified')).toBe('second');
    await new Promise((r) => setTimeout(r, 100));
    expect(events).not.toContain('close first');

    finish();
    expect(await inFlight).toBe('first');
    expect(inFlightSaw).toEqual({ text: 'first', closed: false });
    await waitFor('the old release to close', () => events.includes('close first'), 1000);
    expect(events.indexOf('close first')).toBeGreaterThan(events.indexOf(`open ${next.id}`));
  });

  it('picks up enables again after its LISTEN connection is killed', async () => {
    const killed = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN "${RELEASE_ENABLED_CHANNEL}"`],
    );
    expect(killed.rowCount).toBe(1);
    await new Promise((r) => setTimeout(r, 100));
    const third = await publishProbe('notified', 'third');
    await enableRelease(pool, third.id, 'test');
    await waitFor('the enable after reconnecting', () => store.status().notified?.id === third.id, 3000);
    expect(await read(store, 'notified')).toBe('third');
  });
});

describe('ReleaseStore behind the API (poll every 300 ms)', () => {
  let store: ReleaseStore;
  let app: FastifyInstance;
  let key: string;
  const events: string[] = [];
  let tampered: RegisteredRelease;

  beforeAll(async () => {
    store = newStore(300);
    store.register(probeOpener('alpha', events));
    store.register(probeOpener('beta', events));
    await enableRelease(pool, (await publishProbe('alpha', 'alpha-1')).id, 'test');
    await enableRelease(pool, (await publishProbe('beta', 'beta-1')).id, 'test');
    await store.start();
    app = await buildApp({ config: env.config, pool, releases: store, logger: false });
    app.get<{ Params: { kind: string } }>('/test/probe/:kind', async (request) =>
      request.server.releases.use<Probe, { text: string; id: string }>(request.params.kind, async (probe, release) => ({ text: probe.text, id: release.id })));
    key = (await createKey(pool, {})).key;
  });
  afterAll(async () => {
    await app?.close();
    await store?.stop();
  });

  const get = (kind: string) => app.inject({ url: `/test/probe/${kind}`, headers: { authorization: `Bearer ${key}` } });
  const UNAVAILABLE = (kind: string) => ({ error: `${kind} data temporarily unavailable`, code: 'service_unavailable', retryable: true });

  it('serves both kinds after start', async () => {
    expect((await get('alpha')).json()).toMatchObject({ text: 'alpha-1' });
    expect((await get('beta')).json()).toMatchObject({ text: 'beta-1' });
  });

  it('an unset kind answers 503 with Retry-After 5 while the other kind keeps working', async () => {
    await pool.query(`DELETE FROM enabled_releases WHERE kind = 'alpha'`);
    await waitFor('alpha to go', () => store.status().alpha?.state === 'unavailable', 2000);
    const res = await get('alpha');
    expect(res.statusCode).toBe(503);
    expect(res.headers['retry-after']).toBe('5');
    expect(res.json()).toEqual(UNAVAILABLE('alpha'));
    expect((await get('beta')).statusCode).toBe(200);
    expect(store.status().alpha).toEqual({ id: null, state: 'unavailable', reason: 'no release is enabled' });
  });

  it('a tampered served artifact makes the kind 503 until the file is right again', async () => {
    tampered = await publishProbe('alpha', 'alpha-2');
    await enableRelease(pool, tampered.id, 'test');
    await waitFor('alpha-2', () => store.status().alpha?.id === tampered.id, 2000);
    expect((await get('alpha')).json()).toEqual({ text: 'alpha-2', id: tampered.id });

    const file = path.join(tampered.path, 'data.txt');
    await appendFile(file, ' tampered');
    await waitFor('the change to be noticed', () => store.status().alpha?.state === 'unavailable', 2000);
    const res = await get('alpha');
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual(UNAVAILABLE('alpha'));
    await waitFor('re-verification', () => /fails verification/.test(store.status().alpha?.reason ?? ''), 2000);
    expect(store.status().alpha?.reason).toContain('data.txt');
    expect((await get('beta')).statusCode).toBe(200);

    await writeFile(file, 'alpha-2');
    await waitFor('the repaired release', () => store.status().alpha?.state === 'ready', 2000);
    expect((await get('alpha')).json()).toEqual({ text: 'alpha-2', id: tampered.id });
  });

  it('an enabled release missing on disk is unavailable', async () => {
    const moved = `${tampered.path}.moved`;
    await rename(tampered.path, moved);
    try {
      await waitFor('the missing release', () => store.status().alpha?.state === 'unavailable', 2000);
      expect((await get('alpha')).statusCode).toBe(503);
      await waitFor('re-verification', () => /fails verification/.test(store.status().alpha?.reason ?? ''), 2000);
    } finally {
      await rename(moved, tampered.path);
    }
    await waitFor('the release back', () => store.status().alpha?.state === 'ready', 2000);
  });

  it('stop() waits for in-flight uses, then closes every open release', async () => {
    const extra = newStore(600_000);
    const stopEvents: string[] = [];
    extra.register(probeOpener('beta', stopEvents));
    await extra.start();
    let finish!: () => void;
    const held = new Promise<void>((resolve) => (finish = resolve));
    const inFlight = extra.use<Probe, boolean>('beta', async (probe) => {
      await held;
      return probe.closed;
    });
    let stopped = false;
    const stopping = extra.stop().then(() => (stopped = true));
    await new Promise((r) => setTimeout(r, 100));
    expect(stopped).toBe(false);
    expect(stopEvents).toEqual([expect.stringMatching(/^open /)]);
    await expect(read(extra, 'beta')).rejects.toMatchObject({ statusCode: 503 });
    finish();
    expect(await inFlight).toBe(false);
    await stopping;
    expect(stopEvents).toEqual([expect.stringMatching(/^open /), 'close beta-1']);
  });
});
