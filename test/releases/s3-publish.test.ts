import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { checkStoredRelease } from '../../releases/object-store/check-release.ts';
import { localReleaseDir } from '../../releases/object-store/local-copy.ts';
import { ReleaseBucket } from '../../releases/object-store/s3-client.ts';
import { parseStoreUrl, releaseKeyPrefix } from '../../releases/object-store/store-url.ts';
import { publishRelease, type PublishSpec } from '../../releases/publish.ts';
import { listReleases } from '../../releases/registry.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.ts';

const KIND = 's3probe';
let env: TestEnv;
let pool: Pool;
let s3: TestS3Server;
let bucket: ReleaseBucket;

/** A release of a test-only kind: the given files (name → bytes), a new content hash each call. */
function spec(files: Record<string, Buffer>): PublishSpec {
  return {
    kind: KIND,
    builderVersion: 'probe-1',
    schemaVersion: 1,
    inputs: [{ name: 'files', source: 'memory', sha256: createHash('sha256').update(randomBytes(16)).digest('hex') }],
    async build(dir) {
      for (const [name, bytes] of Object.entries(files)) await writeFile(path.join(dir, name), bytes);
      return { stats: { files: Object.keys(files).length } };
    },
  };
}

beforeAll(async () => {
  Object.assign(process.env, S3_TEST_CREDENTIALS);
  s3 = await startS3Server();
  env = await createTestEnv('s3_publish');
  pool = createPool(env.config.databaseUrl, 2);
  // Parts of 5 MiB (S3's smallest) so that a 12 MB artifact goes up in three parts.
  bucket = new ReleaseBucket(parseStoreUrl(s3.storeUrl('team/releases')), { endpoint: s3.endpoint, partBytes: 5 * 1024 * 1024 });
});

afterAll(async () => {
  bucket?.close();
  await pool?.end();
  await env?.cleanup();
  await s3?.close();
});

describe('publishing to an S3-compatible release store', () => {
  it('uploads every artifact (a large one in parts) and the manifest under <prefix>/<kind>/<id>/, then registers it', async () => {
    const big = randomBytes(12 * 1024 * 1024);
    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, spec({ 'data.txt': Buffer.from('hello'), 'big.bin': big }));
    const prefix = releaseKeyPrefix(bucket.location, KIND, release.id);
    expect(prefix).toBe(`team/releases/${KIND}/${release.id}/`);
    expect((await bucket.list(prefix)).sort()).toEqual([`${prefix}big.bin`, `${prefix}data.txt`, `${prefix}manifest.json`]);
    expect(await bucket.head(`${prefix}big.bin`)).toEqual({ bytes: big.length, sha256: createHash('sha256').update(big).digest('hex') });
    // Every object hashed against the registered manifest, and the stored metadata agrees.
    expect(await checkStoredRelease(bucket, release, { hash: true })).toEqual({ ok: true, problems: [] });
    expect(await checkStoredRelease(bucket, release, { hash: false })).toEqual({ ok: true, problems: [] });
    expect((await listReleases(pool, KIND)).map((r) => r.id)).toEqual([release.id]);
  }, 60_000);

  it('registers nothing and leaves no manifest when the store connection drops mid-upload, and publishes once it is back', async () => {
    const before = (await listReleases(pool, KIND)).map((r) => r.id);
    s3.cutAfter(1024 * 1024); // every connection dies after 1 MB: the 3 MB artifact never arrives
    const files = { 'a.bin': randomBytes(3 * 1024 * 1024), 'b.txt': Buffer.from('b') };
    const failing = spec(files);
    await expect(publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, failing)).rejects.toThrow();
    s3.cutAfter(null);
    expect((await listReleases(pool, KIND)).map((r) => r.id)).toEqual(before);
    const manifests = (await bucket.list('team/releases/')).filter((k) => k.endsWith('/manifest.json'));
    expect(manifests).toHaveLength(before.length);

    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, failing);
    expect(await checkStoredRelease(bucket, release, { hash: true })).toEqual({ ok: true, problems: [] });
  }, 60_000);

  it('registers nothing when the bucket does not exist', async () => {
    const missing = new ReleaseBucket(parseStoreUrl('s3://no-such-bucket/x'), { endpoint: s3.endpoint });
    try {
      const before = (await listReleases(pool, KIND)).length;
      await expect(publishRelease({ pool, releasesDir: env.config.releasesDir, store: missing }, spec({ 'c.txt': Buffer.from('c') })))
        .rejects.toThrow(/bucket/i);
      expect(await listReleases(pool, KIND)).toHaveLength(before);
    } finally {
      missing.close();
    }
  });

  it('finds a whole release in the store by content hash again, and republishes one whose store copy lost its manifest', async () => {
    const same = spec({ 'd.txt': Buffer.from('d') });
    const first = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, same);
    expect(first.reused).toBe(false);
    expect((await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, same)).reused).toBe(true);
    await bucket.remove([`${releaseKeyPrefix(bucket.location, KIND, first.release.id)}manifest.json`]);
    const again = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, same);
    expect(again.release.id).toBe(first.release.id);
    expect(await checkStoredRelease(bucket, again.release, { hash: true })).toEqual({ ok: true, problems: [] });
  });

  it('gives a build on another host a verified local copy of a release, downloading it when missing or damaged', async () => {
    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, spec({ 'e.txt': Buffer.from('e') }));
    const otherHost = await mkdtemp(path.join(env.config.releasesDir, 'other-host-'));
    const settings = { releasesDir: otherHost, releaseStore: s3.storeUrl('team/releases'), s3Endpoint: s3.endpoint };
    const dir = await localReleaseDir(release, settings);
    expect(dir).toBe(path.join(otherHost, KIND, release.id));
    expect(await readFile(path.join(dir, 'e.txt'), 'utf8')).toBe('e');
    await writeFile(path.join(dir, 'e.txt'), 'x');
    expect(await localReleaseDir(release, settings)).toBe(dir);
    expect(await readFile(path.join(dir, 'e.txt'), 'utf8')).toBe('e');
    // Without a store: the registered path, as before.
    expect(await localReleaseDir(release, { ...settings, releaseStore: null })).toBe(release.path);
  });
});
