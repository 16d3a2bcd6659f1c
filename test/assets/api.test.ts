import { gunzipSync } from 'node:zlib';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../api/server.ts';
import { decodeGlyphPbf } from '../../engines/assets/glyph-pbf.ts';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import { assetsKind } from '../../jobs/kinds/assets.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { getEnabledRelease, getRelease } from '../../releases/registry.ts';
import { ASSETS_KIND } from '../../schemas/assets-release.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let env: TestEnv;
let pool: Pool;
let redis: Redis;
let queue: Queue;
let workers: RunningWorkers;
let server: RunningServer;
let key = '';
let keyId = '';
let releaseId = '';
let buildMs = 0;

const REGULAR = 'Noto%20Sans%20Regular';
const SYLLABICS = 'Noto%20Sans%20Canadian%20Aboriginal%20Regular';

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await server.app.inject({ method: 'GET', url: `${url}${url.includes('?') ? '&' : '?'}key=${key}`, headers });
  return { status: response.statusCode, headers: response.headers, body: response.rawPayload, text: response.body };
}

const glyphsOf = (body: Buffer, gzipped = true) => decodeGlyphPbf(gzipped ? gunzipSync(body) : body);

beforeAll(async () => {
  env = await createTestEnv('assets_api');
  pool = createPool(env.config.databaseUrl, 4);
  redis = createRedis(env.config.redisUrl);
  const created = await createKey(pool, {});
  [key, keyId] = [created.key, created.id];
  server = await startServer(env.config, { logger: false });
}, 120_000);

afterAll(async () => {
  await workers?.close();
  await queue?.close();
  redis?.disconnect();
  await server?.close();
  await pool?.end();
  await env?.cleanup();
});

describe('glyphs and sprites before any assets release', () => {
  it('answer plain-text 404 not found (not a 503)', async () => {
    for (const url of [`/glyphs/2/${REGULAR}/0-255.pbf`, '/sprite/2/light.json', `/glyphs/${REGULAR}/0-255.pbf`]) {
      const answer = await get(url);
      expect(answer.status, url).toBe(404);
      expect(answer.text).toBe('not found');
      expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    }
  });
});

describe('canmap ingest assets as a job: publish, enable, serve', () => {
  beforeAll(async () => {
    workers = await startWorkers(env.config, { kinds: [assetsKind], log: () => {} });
    queue = openQueue(env.config, ASSETS_KIND, redis);
    const { jobId } = await enqueueIngest(env.config, queue, assetsKind, { enable: true });
    const outcome = await waitForJob(queue, jobId, () => {}, 100);
    if (!outcome.ok) throw new Error(`assets job failed: ${outcome.reason}`);
    releaseId = outcome.result.release;
    const deadline = Date.now() + 30_000;
    while (server.app.releases.status()[ASSETS_KIND]?.id !== releaseId) {
      if (Date.now() > deadline) throw new Error(`assets release not served: ${JSON.stringify(server.app.releases.status())}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }, 120_000);

  it('publishes and enables a release with the glyph pack, sprite files, licences and build stats', async () => {
    expect((await getEnabledRelease(pool, ASSETS_KIND))?.id).toBe(releaseId);
    const release = (await getRelease(pool, releaseId))!;
    const stats = release.manifest.stats as { build_ms: number; fonts: string[]; sprites: { sheets: number } };
    buildMs = stats.build_ms;
    console.log(`assets build: ${buildMs} ms; stats ${JSON.stringify(release.manifest.stats)}`);
    expect(stats.fonts).toContain('Noto Sans Canadian Aboriginal Regular');
    expect(stats.sprites.sheets).toBe(4);
    expect(buildMs).toBeLessThan(60_000);
    expect(release.manifest.inputs.map((i) => [i.name, i.licence])).toEqual([
      ['@fontsource/noto-sans', 'OFL-1.1'], ['@fontsource/noto-sans-canadian-aboriginal', 'OFL-1.1'], ['@mapbox/maki', 'CC0-1.0'],
    ]);
    expect((await readdir(path.join(release.path, 'licences'))).sort()).toEqual([
      'fontsource-noto-sans-OFL-1.1.txt', 'fontsource-noto-sans-canadian-aboriginal-OFL-1.1.txt', 'mapbox-maki-CC0-1.0.txt',
    ]);
    expect((await readdir(path.join(release.path, 'sprite'))).length).toBe(16);
  });

  it('serves a versioned glyph range: gzip protobuf, immutable for a year, ETag and 304', async () => {
    const answer = await get(`/glyphs/2/${REGULAR}/0-255.pbf`, { 'accept-encoding': 'gzip' });
    expect(answer.status).toBe(200);
    expect(answer.headers['content-type']).toBe('application/x-protobuf');
    expect(answer.headers['content-encoding']).toBe('gzip');
    expect(answer.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(answer.headers.etag).toBe(`"${releaseId}"`);
    const [stack] = glyphsOf(answer.body);
    expect(stack).toMatchObject({ name: 'Noto Sans Regular', range: '0-255' });
    expect(stack!.glyphs.find((g) => g.id === 65)).toMatchObject({ width: 15, height: 17, left: 0, top: -8, advance: 15 });
    const again = await get(`/glyphs/2/${REGULAR}/0-255.pbf`, { 'if-none-match': `"${releaseId}"` });
    expect(again.status).toBe(304);
    for (const tag of [`W/"${releaseId}"`, '*']) expect((await get(`/glyphs/2/${REGULAR}/0-255.pbf`, { 'if-none-match': tag })).status).toBe(304);
    const plain = await get(`/glyphs/2/${REGULAR}/0-255.pbf`, { 'accept-encoding': 'identity' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(glyphsOf(plain.body, false)[0]!.glyphs.length).toBe(stack!.glyphs.length);
  });

  it('unversioned and older-version URLs still serve, cached for a day only', async () => {
    for (const url of [`/glyphs/${REGULAR}/0-255.pbf`, `/glyphs/1/${REGULAR}/0-255.pbf`, '/sprite/light.json', '/sprite/1/light.json']) {
      const answer = await get(url);
      expect(answer.status, url).toBe(200);
      expect(answer.headers['cache-control'], url).toBe('public, max-age=86400');
    }
  });

  it('draws syllabics in every Noto Sans stack (U+1401 ᐁ, U+14C4 ᓄ) and in the syllabics face', async () => {
    for (const font of ['Noto Sans Regular', 'Noto Sans Medium', 'Noto Sans Italic', 'Noto Sans Canadian Aboriginal Regular']) {
      const answer = await get(`/glyphs/2/${encodeURIComponent(font)}/5120-5375.pbf`);
      expect(answer.status, font).toBe(200);
      const glyphs = glyphsOf(answer.body)[0]!.glyphs;
      expect(glyphs.length, font).toBe(256);
      for (const id of [0x1401, 0x14c4]) expect(glyphs.find((g) => g.id === id)?.bitmap?.length, `${font} U+${id.toString(16)}`).toBeGreaterThan(0);
    }
    // Extended syllabics block U+18B0–18FF sits in range 6144-6399.
    const extended = glyphsOf((await get(`/glyphs/2/${REGULAR}/6144-6399.pbf`)).body)[0]!.glyphs.filter((g) => g.id >= 0x18b0);
    expect(extended.length).toBeGreaterThan(60);
  });

  it('combines a comma-separated stack: the first font with a code point wins', async () => {
    const ITALIC = 'Noto%20Sans%20Italic';
    for (const start of [0, 8192]) {
      const range = `${start}-${start + 255}.pbf`;
      const regular = glyphsOf((await get(`/glyphs/2/${REGULAR}/${range}`)).body)[0]!.glyphs;
      const italic = glyphsOf((await get(`/glyphs/2/${ITALIC}/${range}`)).body)[0]!.glyphs;
      const combined = await get(`/glyphs/2/${ITALIC},${REGULAR}/${range}`);
      expect(combined.status).toBe(200);
      const [stack] = glyphsOf(combined.body);
      expect(stack!.name).toBe('Noto Sans Italic,Noto Sans Regular');
      const ids = new Set([...regular, ...italic].map((g) => g.id));
      expect(stack!.glyphs.map((g) => g.id)).toEqual([...ids].sort((a, b) => a - b));
      const bytes = (g: { bitmap?: Uint8Array } | undefined) => Buffer.from(g?.bitmap ?? []);
      for (const g of stack!.glyphs) {
        const winner = italic.find((i) => i.id === g.id) ?? regular.find((r) => r.id === g.id);
        expect(bytes(g).equals(bytes(winner)), `U+${g.id.toString(16)}`).toBe(true);
      }
      // The faces really differ, so the test can tell which one won.
      expect(italic.filter((i) => !bytes(i).equals(bytes(regular.find((r) => r.id === i.id)))).length).toBeGreaterThan(20);
      // The same stack again comes from the cache, byte for byte.
      expect((await get(`/glyphs/2/${ITALIC},${REGULAR}/${range}`)).body.equals(combined.body)).toBe(true);
    }
    // The syllabics face first: its whole syllabics range, nothing lost to the fallback.
    const mixed = glyphsOf((await get(`/glyphs/2/${SYLLABICS},${REGULAR}/5120-5375.pbf`)).body)[0]!;
    expect(mixed.glyphs.length).toBe(256);
  });

  it('answers a range without glyphs in a known stack with an empty fontstack message', async () => {
    const answer = await get(`/glyphs/2/${REGULAR}/57344-57599.pbf`);
    expect(answer.status).toBe(200);
    expect(glyphsOf(answer.body)).toEqual([{ name: 'Noto Sans Regular', range: '57344-57599', glyphs: [] }]);
  });

  it.each([
    ['/glyphs/2/Noto%20Sans%20Bold/0-255.pbf', 404, 'not found'],
    [`/glyphs/2/${REGULAR},Comic%20Sans/0-255.pbf`, 404, 'not found'],
    [`/glyphs/3/${REGULAR}/0-255.pbf`, 404, 'glyphs version 3 does not exist; the current version is 2'],
    [`/glyphs/2/${REGULAR},,/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/%20/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/Noto%0ASans/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/${'A'.repeat(300)}/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/Noto%ZZSans/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/${'A'.repeat(1100)}/0-255.pbf`, 400, 'invalid fontstack'],
    [`/glyphs/2/${REGULAR}/1-256.pbf`, 400, 'invalid range'],
    [`/glyphs/2/${REGULAR}/0-255`, 400, 'invalid range'],
    [`/glyphs/2/${REGULAR}/65536-65791.pbf`, 400, 'invalid range'],
    [`/glyphs/v2/${REGULAR}/0-255.pbf`, 400, 'invalid version'],
    [`/glyphs/0/${REGULAR}/0-255.pbf`, 400, 'invalid version'],
    ['/sprite/2/light.gif', 400, 'unexpected extension: use .json or .png'],
    ['/sprite/2/light', 400, 'unexpected extension: use .json or .png'],
    ['/sprite/x/light.json', 400, 'invalid version'],
    ['/sprite/2/white.json', 404, 'not found'],
    ['/sprite/2/light@3x.png', 404, 'not found'],
    ['/sprite/3/light.json', 404, 'sprite version 3 does not exist; the current version is 2'],
  ])('%s → %i plain text', async (url, status, text) => {
    const answer = await get(url);
    expect(answer.status).toBe(status);
    expect(answer.headers['content-type']).toMatch(/^text\/plain/);
    expect(answer.text).toBe(text);
  });

  it('serves every sprite file with its media type, ETag, 304 and the versioned cache policy', async () => {
    for (const sheet of ['light', 'dark', 'muted-light', 'muted-dark']) {
      const json = await get(`/sprite/2/${sheet}@2x.json`);
      expect(json.status).toBe(200);
      expect(json.headers['content-type']).toMatch(/^application\/json/);
      expect(json.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(JSON.parse(json.text).townspot).toMatchObject({ width: 20, height: 20, pixelRatio: 2 });
      const png = await get(`/sprite/2/${sheet}.png`);
      expect(png.headers['content-type']).toBe('image/png');
      expect(png.body.subarray(1, 4).toString()).toBe('PNG');
    }
    expect((await get('/sprite/2/dark.png', { 'if-none-match': `"${releaseId}"` })).status).toBe(304);
    for (const tag of [`W/"${releaseId}"`, '*']) expect((await get('/sprite/2/dark.png', { 'if-none-match': tag })).status).toBe(304);
    expect((await get('/sprite/2/dark.png', { 'if-none-match': 'W/"2020-01-01-000000"' })).status).toBe(200);
  });

  it('meters neither glyph nor sprite fetches (a style fetch with the same key is counted)', async () => {
    await get('/styles/base-light.json');
    for (let i = 0; i < 3; i++) {
      await get(`/glyphs/2/${REGULAR}/0-255.pbf`);
      await get('/sprite/2/light@2x.png');
      await get('/glyphs/2/Nope/0-255.pbf');
    }
    await server.app.meterJournal?.flush();
    const { rows } = await pool.query<{ family: string; calls: number }>('SELECT family, sum(calls)::int AS calls FROM usage_daily WHERE key_id = $1 GROUP BY family', [keyId]);
    expect(Object.fromEntries(rows.map((r) => [r.family, r.calls]))).toEqual({ maps: 1 });
  });
});
