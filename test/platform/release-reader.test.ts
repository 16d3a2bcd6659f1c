import { createHash } from 'node:crypto';
import { appendFile, readFile, rename, utimes, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { ChannelListener } from '../../releases/reader-listener.ts';
import { ReleaseStore, type KindOpener, type ReaderLog } from '../../releases/reader.ts';
import { enableRelease, RELEASE_ENABLED_CHANNEL, type RegisteredRelease } from '../../releases/registry.ts';
import { ReleaseUnavailableError } from '../../releases/unavailable.ts';
import { publishTextRelease, waitFor } from '../support/release-probe.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

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
const publishProbe = (kind: string, text: string) => publishTextRelease({ pool, releasesDir: env.config.releasesDir }, kind, text);

function newStore(pollMs: number, log?: ReaderLog): ReleaseStore {
  return new ReleaseStore({ pool, databaseUrl: env.config.databaseUrl, releasesDir: env.config.releasesDir, pollMs, log });
}

/** A ReaderLog keeping every message, to wait for one. */
function recordingLog(lines: string[]): ReaderLog {
  const keep = (msg: string) => void lines.push(msg);
  return { info: (_o, msg) => keep(msg), warn: (_o, msg) => keep(msg), error: (_o, msg) => keep(msg) };
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
  const logLines: string[] = [];
  beforeAll(async () => {
    store = newStore(600_000, recordingLog(logLines));
    store.register(probeOpener('notified', events));
    await store.start();
  });
  afterAll(async () => {
    await store?.stop();
  });

  it('starts unavailable and throws ReleaseUnavailableError naming the kind', async () => {
    expect(store.status()).toEqual({ notified: { id: null, state: 'unavailable', reason: 'no release is enabled' } });
    const err = await read(store, 'notified').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReleaseUnavailableError);
    expect(err).toMatchObject({ kind: 'notified' });
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

  it('receives NOTIFY again after its LISTEN connection is killed and re-established', async () => {
    const killed = await pool.query(
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query = $1`,
      [`LISTEN "${RELEASE_ENABLED_CHANNEL}"`],
    );
    expect(killed.rowCount).toBe(1);
    await waitFor('the listener to reconnect', () => logLines.includes('release listener reconnected'), 5000);
    // Let the reload the reconnect triggers finish first: with the poll 10 minutes away, only a
    // notification received on the new connection can bring the next enable in.
    await store.refresh('notified');
    const third = await publishProbe('notified', 'third');
    await enableRelease(pool, third.id, 'test', { allowShrink: true }); // 'third' is shorter than 'second'
    await waitFor('the notified enable', () => store.status().notified?.id === third.id, 2000);
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
    await expect(read(extra, 'beta')).rejects.toBeInstanceOf(ReleaseUnavailableError);
    finish();
    expect(await inFlight).toBe(false);
    await stopping;
    expect(stopEvents).toEqual([expect.stringMatching(/^open /), 'close beta-1']);
  });
});

describe('ReleaseStore re-verification and retries (poll far away, reloads by refresh())', () => {
  const stores: ReleaseStore[] = [];
  afterAll(async () => {
    await Promise.all(stores.map((s) => s.stop()));
  });

  async function startedStore(opener: KindOpener<Probe>): Promise<ReleaseStore> {
    const store = newStore(600_000);
    stores.push(store);
    store.register(opener);
    await store.start();
    return store;
  }

  it('a served file that changed on disk is re-verified in the same reload, and served again if it still matches', async () => {
    const events: string[] = [];
    const release = await publishProbe('touched', 'touched-1');
    await enableRelease(pool, release.id, 'test');
    const store = await startedStore(probeOpener('touched', events));
    expect(store.status().touched).toEqual({ id: release.id, state: 'ready' });

    const later = new Date(Date.now() + 60_000);
    await utimes(path.join(release.path, 'data.txt'), later, later);
    await store.refresh('touched');
    expect(store.status().touched).toEqual({ id: release.id, state: 'ready' });
    expect(await read(store, 'touched')).toBe('touched-1');
    expect(events.filter((e) => e === `open ${release.id}`)).toHaveLength(2);

    await appendFile(path.join(release.path, 'data.txt'), ' tampered');
    await store.refresh('touched');
    expect(store.status().touched).toMatchObject({ state: 'unavailable', reason: expect.stringMatching(/fails verification: data\.txt: /) });
  });

  it('a release that failed to open is opened again later, without its files changing', async () => {
    const events: string[] = [];
    const probe = probeOpener('flaky-open', events);
    let failures = 1;
    const release = await publishProbe('flaky-open', 'flaky-1');
    await enableRelease(pool, release.id, 'test');
    const store = await startedStore({
      ...probe,
      async open(dir, manifest) {
        if (failures-- > 0) throw new Error('EMFILE: too many open files');
        return probe.open(dir, manifest);
      },
    });
    expect(store.status()['flaky-open']).toMatchObject({ state: 'unavailable', reason: expect.stringContaining('could not be opened: EMFILE') });
    await waitFor('the open to be retried', () => store.status()['flaky-open']?.state === 'ready', 5000);
    expect(await read(store, 'flaky-open')).toBe('flaky-1');
  });

  it('a release directory rewritten consistently (data and manifest.json) is refused: files are checked against the registered manifest', async () => {
    const events: string[] = [];
    const release = await publishProbe('rewritten', 'rewritten-1');
    await enableRelease(pool, release.id, 'test');
    const store = await startedStore(probeOpener('rewritten', events));
    expect(await read(store, 'rewritten')).toBe('rewritten-1');

    const data = 'swapped in behind the registry';
    await writeFile(path.join(release.path, 'data.txt'), data);
    const manifest = JSON.parse(await readFile(path.join(release.path, 'manifest.json'), 'utf8'));
    manifest.artifacts = [{ path: 'data.txt', bytes: data.length, sha256: createHash('sha256').update(data).digest('hex') }];
    await writeFile(path.join(release.path, 'manifest.json'), JSON.stringify(manifest));

    await store.refresh('rewritten');
    expect(store.status().rewritten).toMatchObject({
      state: 'unavailable',
      reason: expect.stringContaining('manifest.json is not the registered manifest (artifacts differ)'),
    });
    await expect(read(store, 'rewritten')).rejects.toBeInstanceOf(ReleaseUnavailableError);
  });
});

describe('ChannelListener', () => {
  it('gives up connecting to a Postgres that accepts but never answers, so start() does not hang', async () => {
    const sockets = new Set<net.Socket>();
    const stalled = net.createServer((socket) => void sockets.add(socket));
    await new Promise<void>((resolve) => stalled.listen(0, '127.0.0.1', resolve));
    const port = (stalled.address() as net.AddressInfo).port;
    const lines: string[] = [];
    const listener = new ChannelListener({
      databaseUrl: `postgres://postgres@127.0.0.1:${port}/nowhere`,
      channel: RELEASE_ENABLED_CHANNEL,
      log: recordingLog(lines),
      onNotification: () => {},
      onReconnect: () => {},
      connectTimeoutMs: 300,
    });
    try {
      const started = Date.now();
      await listener.start();
      expect(Date.now() - started).toBeLessThan(2000);
      expect(sockets.size).toBeGreaterThan(0);
      expect(lines.some((l) => l.startsWith('release listener lost its connection'))).toBe(true);
    } finally {
      await listener.stop();
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => stalled.close(resolve));
    }
  });
});
