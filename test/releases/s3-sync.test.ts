import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Registry } from 'prom-client';
import { readinessOf } from '../../api/admin/readiness.ts';
import { registerReleaseSyncMetrics } from '../../api/metrics/release-sync-metrics.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { ReleaseBucket } from '../../releases/object-store/s3-client.ts';
import { parseStoreUrl, releaseKeyPrefix } from '../../releases/object-store/store-url.ts';
import { publishRelease } from '../../releases/publish.ts';
import { ReleaseStore, type KindOpener } from '../../releases/reader.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { waitFor } from '../support/release-probe.ts';
import { parseExposition, sampleValue } from '../support/prometheus-text.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.ts';

const KIND = 's3sync';
const BIG_BYTES = 8 * 1024 * 1024;
/** The resource is data.txt's text, read at open. */
const opener: KindOpener<string> = { kind: KIND, open: (dir) => readFile(path.join(dir, 'data.txt'), 'utf8'), async close() {} };

let env: TestEnv;
let pool: Pool;
let s3: TestS3Server;
let builder: ReleaseBucket;
let scratch = '';
const stores: ReleaseStore[] = [];

async function publish(text: string): Promise<RegisteredRelease> {
  const big = randomBytes(BIG_BYTES);
  const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: builder }, {
    kind: KIND, builderVersion: 'probe-1', schemaVersion: 1,
    inputs: [{ name: 'text', source: 'memory', sha256: createHash('sha256').update(text).digest('hex') }],
    async build(dir) {
      await writeFile(path.join(dir, 'data.txt'), text);
      await writeFile(path.join(dir, 'big.bin'), big);
      return { stats: {} };
    },
  });
  return release;
}

/** An API node's release store: its own RELEASES_DIR, the shared database and bucket. */
async function startNode(syncWaitMs = 60_000, idleTimeoutMs?: number): Promise<{ store: ReleaseStore; dir: string }> {
  const dir = await mkdtemp(path.join(scratch, 'node-'));
  const store = new ReleaseStore({
    pool, databaseUrl: env.config.databaseUrl, releasesDir: dir, pollMs: 600_000, syncWaitMs,
    store: new ReleaseBucket(parseStoreUrl(s3.storeUrl('sync')), { endpoint: s3.endpoint, idleTimeoutMs }),
  });
  store.register(opener);
  stores.push(store);
  await store.start();
  return { store, dir };
}

const served = (store: ReleaseStore) => store.use<string, string>(KIND, async (text) => text);
const enable = (release: RegisteredRelease) => enableRelease(pool, release.id, 's3 test', { store: builder });

beforeAll(async () => {
  Object.assign(process.env, S3_TEST_CREDENTIALS);
  s3 = await startS3Server();
  env = await createTestEnv('s3_sync');
  pool = createPool(env.config.databaseUrl, 4);
  builder = new ReleaseBucket(parseStoreUrl(s3.storeUrl('sync')), { endpoint: s3.endpoint });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-s3-sync-'));
});

afterAll(async () => {
  for (const store of stores) await store.stop();
  builder?.close();
  await pool?.end();
  await env?.cleanup();
  await s3?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('a node syncing releases from the store', () => {
  let node: { store: ReleaseStore; dir: string };
  let first: RegisteredRelease;
  let second: RegisteredRelease;

  it('keeps serving the previous release while a download is cut midway, says so, and swaps once the store answers again', async () => {
    first = await publish('first');
    second = await publish('second');
    await enable(first);
    node = await startNode();
    expect(await served(node.store)).toBe('first');

    s3.cutAfter(1024 * 1024); // every connection drops after 1 MB: an 8 MB artifact never arrives whole
    await enable(second);
    await waitFor('a failed download', () => (node.store.status()[KIND]?.sync?.failures ?? 0) >= 1, 30_000);
    const status = node.store.status()[KIND]!;
    expect(status).toMatchObject({ id: first.id, state: 'ready', sync: { releaseId: second.id, state: 'failed' } });
    expect(status.sync!.lastError).toMatch(/download failed/);
    expect(status.sync!.nextRetryAt).not.toBeNull();
    expect(await served(node.store)).toBe('first');
    // Nothing half-downloaded is in place.
    expect(await readdir(path.join(node.dir, KIND))).toEqual([first.id]);
    expect(node.store.syncCounters()![KIND]!.failures).toBeGreaterThanOrEqual(1);
    // The node stays ready (it serves the first release) and says why it is behind, in /readyz and the metrics.
    const answering = { ok: true, roundTripMs: 1, checkedAt: Date.now() };
    const readiness = readinessOf({ postgres: answering, redis: answering }, node.store.status());
    expect(readiness).toMatchObject({ ready: true, reasons: [] });
    expect(readiness.warnings).toEqual([expect.stringMatching(new RegExp(`^${KIND}: serving ${first.id}; download of ${second.id} from the release store failed: .*download failed`))]);
    const registry = new Registry();
    registerReleaseSyncMetrics(registry, node.store);
    const samples = parseExposition(await registry.metrics());
    expect(sampleValue(samples, 'canmap_release_sync_failing', { kind: KIND })).toBe(1);
    expect(sampleValue(samples, 'canmap_release_sync_failures_total', { kind: KIND })).toBeGreaterThanOrEqual(1);

    s3.cutAfter(null);
    await waitFor('the second release after the store is back', () => node.store.status()[KIND]?.id === second.id, 60_000);
    expect(await served(node.store)).toBe('second');
    expect(node.store.status()[KIND]!.sync).toMatchObject({ releaseId: second.id, state: 'synced', failures: 0, lastError: expect.stringMatching(/download failed/) });
    expect(node.store.syncCounters()![KIND]).toMatchObject({ downloads: 2 });
    const after = parseExposition(await registry.metrics());
    expect(sampleValue(after, 'canmap_release_sync_failing', { kind: KIND })).toBe(0);
    expect(sampleValue(after, 'canmap_release_sync_downloads_total', { kind: KIND })).toBe(2);
    expect(sampleValue(after, 'canmap_release_sync_bytes_total', { kind: KIND })).toBeGreaterThan(2 * BIG_BYTES);
  }, 120_000);

  it('refuses an object whose bytes differ from the manifest, keeps the previous release, and recovers once the object is repaired', async () => {
    const third = await publish('third');
    const key = `${releaseKeyPrefix(builder.location, KIND, third.id)}big.bin`;
    const original = path.join(scratch, 'big.bin');
    await builder.download(key, original);
    const damaged = path.join(scratch, 'damaged.bin');
    await writeFile(damaged, randomBytes(BIG_BYTES));
    // Same size and the same sha256 metadata: only hashing the bytes tells.
    await builder.upload(key, damaged, third.manifest.artifacts.find((a) => a.path === 'big.bin')!.sha256);
    await enable(third);
    await waitFor('a download that fails verification', () => node.store.status()[KIND]?.sync?.state === 'failed', 30_000);
    expect(node.store.status()[KIND]).toMatchObject({ id: second.id, state: 'ready' });
    expect(node.store.status()[KIND]!.sync!.lastError).toMatch(/fails verification: big\.bin: checksum differs/);
    expect(await served(node.store)).toBe('second');

    await builder.upload(key, original, third.manifest.artifacts.find((a) => a.path === 'big.bin')!.sha256);
    await waitFor('the third release once the object is repaired', () => node.store.status()[KIND]?.id === third.id, 60_000);
    expect(await served(node.store)).toBe('third');
  }, 120_000);

  it('downloads again a cached copy that was damaged on the node', async () => {
    const id = node.store.status()[KIND]!.id!;
    await writeFile(path.join(node.dir, KIND, id, 'data.txt'), 'tampered');
    await node.store.refresh(KIND);
    expect(node.store.status()[KIND]).toMatchObject({ id, state: 'ready' });
    expect(await served(node.store)).toBe('third');
  }, 60_000);

  it('starts while the store is down with the kind unavailable and the reason, then serves once the store is back', async () => {
    await s3.down();
    try {
      const late = await startNode(2000);
      const status = late.store.status()[KIND]!;
      expect(status.state).toBe('unavailable');
      expect(status.reason).toMatch(/not synced from the release store|downloading/);
      await s3.up();
      await waitFor('the late node to serve', () => late.store.status()[KIND]?.state === 'ready', 90_000);
      expect(await served(late.store)).toBe('third');
    } finally {
      await s3.up().catch(() => {});
    }
  }, 120_000);

  it('gives up on a store that stops sending midway (idle timeout), keeps serving, and recovers', async () => {
    const late = await startNode(60_000, 1000);
    const before = late.store.status()[KIND]!.id!;
    expect(await served(late.store)).toBe('third');
    const fourth = await publish('fourth');
    s3.stallAfter(1024 * 1024); // the connection stays open but the 8 MB artifact stops after 1 MB
    try {
      await enable(fourth);
      await waitFor('a stalled download to time out', () => late.store.status()[KIND]?.sync?.state === 'failed', 30_000);
      expect(late.store.status()[KIND]).toMatchObject({ id: before, state: 'ready' });
      expect(late.store.status()[KIND]!.sync!.lastError).toMatch(/timed out/);
      expect(await served(late.store)).toBe('third');
    } finally {
      s3.stallAfter(null);
    }
    await waitFor('the fourth release once the store sends again', () => late.store.status()[KIND]?.id === fourth.id, 60_000);
    expect(await served(late.store)).toBe('fourth');
  }, 120_000);
});
