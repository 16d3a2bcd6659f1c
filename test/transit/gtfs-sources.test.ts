import { createReadStream } from 'node:fs';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, utimes } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { DuckDBInstance } from '@duckdb/node-api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InvalidInputError } from '../../ingest/errors.ts';
import { prepareTransitRelease, TRANSIT_BUILDER_VERSION, type TransitCoverageEntry } from '../../ingest/transit/release.ts';
import { extractFeedZip } from '../../ingest/transit/unzip.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import type { FeedSpec } from '../../schemas/transit-feeds.ts';
import { TRANSIT_DATABASE_FILE } from '../../schemas/transit-release.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { openTransit, writeZip } from '../support/gtfs-fixtures.ts';
import { sharedData } from '../support/paths.ts';

const GTFS = sharedData('gtfs');
const VIA_ZIP = path.join(GTFS, 'ca-via-rail-better-via-gtfs.zip');
const STQ_ZIP = path.join(GTFS, 'ca-qc-stq-ferries.zip');
const GGL_ZIP = path.join(GTFS, 'ggl_gtfs.zip');
const LAST_MODIFIED = 'Tue, 21 Oct 2025 07:28:00 GMT';

let root: string;
let server: http.Server;
let base: string;
let viaBytes: number;
const spec = (id: string, source: string): FeedSpec => ({ id, source, licence: 'test', attribution: 'test' });
const opts = (extra: Partial<{ fetchTimeoutMs: number; maxDownloadBytes: number }> = {}) => ({
  workDir: path.join(root, `work-${Math.random().toString(36).slice(2)}`), fetchTimeoutMs: 5000, maxDownloadBytes: 10 * 1024 * 1024, ...extra,
});

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'gtfs-sources-'));
  viaBytes = (await stat(VIA_ZIP)).size;
  server = http.createServer((req, res) => {
    switch (req.url) {
      case '/via.zip':
        res.writeHead(200, { 'content-type': 'application/zip', 'content-length': viaBytes, etag: '"via-42"', 'last-modified': LAST_MODIFIED });
        createReadStream(VIA_ZIP).pipe(res);
        return;
      case '/via-chunked.zip': // no content-length: the cap must hold while streaming
        res.writeHead(200, { 'content-type': 'application/zip' });
        createReadStream(VIA_ZIP).pipe(res);
        return;
      case '/missing.zip':
        res.writeHead(404).end('not here');
        return;
      case '/broken.zip':
        res.writeHead(503).end('try later');
        return;
      case '/request-timeout.zip':
        res.writeHead(408).end('request timeout');
        return;
      case '/rate-limited.zip':
        res.writeHead(429, { 'retry-after': '60' }).end('slow down');
        return;
      case '/slow.zip': // headers, then silence
        res.writeHead(200, { 'content-type': 'application/zip' });
        res.write(Buffer.from('PK'));
        return;
      default:
        res.writeHead(500).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await rm(root, { recursive: true, force: true });
});

/** A URL on a port that was just free: connecting to it is refused. */
async function closedPortUrl(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return `http://127.0.0.1:${port}`;
}

describe('HTTP sources', () => {
  it('downloads a zip, keeping ETag as version and Last-Modified as source_updated_at', async () => {
    const publish = await prepareTransitRelease([spec('via', `${base}/via.zip`)], opts());
    expect(publish.inputs).toEqual([expect.objectContaining({ name: 'via', source: `${base}/via.zip`, source_updated_at: '2025-10-21T07:28:00.000Z' })]);
    const local = await prepareTransitRelease([spec('via', VIA_ZIP)], opts());
    expect(publish.inputs[0]!.sha256).toBe(local.inputs[0]!.sha256);

    const staging = await mkdtemp(path.join(root, 'staging-'));
    await publish.build(staging);
    const db = await openTransit(path.join(staging, TRANSIT_DATABASE_FILE));
    try {
      expect(await db.query(`SELECT feed_id, source, source_updated_at, source_version FROM feeds`)).toEqual([
        { feed_id: 'via', source: `${base}/via.zip`, source_updated_at: '2025-10-21T07:28:00.000Z', source_version: '"via-42"' },
      ]);
    } finally {
      db.close();
    }
  });

  it('refuses 4xx answers and downloads over the size cap, keeping the other feeds', async () => {
    const feeds = [spec('missing', `${base}/missing.zip`), spec('big', `${base}/via.zip`), spec('bigchunked', `${base}/via-chunked.zip`), spec('stq', STQ_ZIP)];
    const publish = await prepareTransitRelease(feeds, opts({ maxDownloadBytes: 20_000 }));
    expect(publish.inputs.map((i) => i.name)).toEqual(['stq']);
    const outcome = await publish.build(await mkdtemp(path.join(root, 'staging-')));
    const reasons = Object.fromEntries((outcome.coverage as unknown as TransitCoverageEntry[]).map((c) => [c.feed_id, c.reason ?? c.status]));
    expect(reasons).toEqual({
      missing: `download of ${base}/missing.zip failed: HTTP 404 Not Found`,
      big: `download of ${base}/via.zip is ${viaBytes} bytes, over the 20000-byte limit`,
      bigchunked: `download of ${base}/via-chunked.zip exceeds the 20000-byte limit`,
      stq: 'included',
    });
  });

  it('treats 5xx, 408, 429, timeouts and connection errors as transient (ordinary errors, retried by the job)', async () => {
    const attempts = {
      [`${base}/broken.zip`]: /^download of .*\/broken\.zip failed: HTTP 503 \(server error, will retry\)$/,
      [`${base}/request-timeout.zip`]: /^download of .*\/request-timeout\.zip failed: HTTP 408 \(request timeout, will retry\)$/,
      [`${base}/rate-limited.zip`]: /^download of .*\/rate-limited\.zip failed: HTTP 429 \(too many requests, will retry\)$/,
      [`${base}/slow.zip`]: /^download of .*\/slow\.zip timed out after 300 ms$/,
      [`${await closedPortUrl()}/closed.zip`]: /^download of http:\/\/127\.0\.0\.1:\d+\/closed\.zip failed: fetch failed \(ECONNREFUSED\)$/,
    };
    for (const [url, message] of Object.entries(attempts)) {
      const attempt = prepareTransitRelease([spec('stq', STQ_ZIP), spec('web', url)], opts({ fetchTimeoutMs: 300 }));
      await expect(attempt).rejects.toThrow(message);
      await expect(attempt).rejects.not.toBeInstanceOf(InvalidInputError);
    }
  });
});

describe('content hash and local sources', () => {
  it('gives a re-zipped, nested, CRLF or BOM copy of a feed the same hash, and a changed feed another', async () => {
    const extracted = path.join(root, 'via-extracted');
    await mkdir(extracted);
    await extractFeedZip(VIA_ZIP, extracted);
    const names = (await readdir(extracted)).sort().reverse();
    const texts = await Promise.all(names.map(async (name) => ({ name, data: await readFile(path.join(extracted, name)) })));

    const rezipped = path.join(root, 'via-rezipped.zip');
    await writeZip(rezipped, texts.map((t) => ({ ...t, method: 'store' as const })));
    const nested = path.join(root, 'via-nested.zip');
    await writeZip(nested, texts.map((t) => ({ ...t, name: `gtfs/via/${t.name}` })));
    const windows = path.join(root, 'via-crlf-bom.zip');
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    await writeZip(windows, texts.map((t) => ({ name: t.name, data: Buffer.concat([bom, Buffer.from(t.data.toString('utf8').replace(/\r?\n/g, '\r\n'))]) })));
    const changed = path.join(root, 'via-changed.zip');
    await writeZip(changed, texts.map((t) => (t.name === 'stop_times.txt' ? { name: t.name, data: t.data.toString('utf8').replace('110:29:00', '110:30:00') } : t)));

    const sources = { original: VIA_ZIP, rezipped, nested, windows, directory: extracted, changed };
    const publish = await prepareTransitRelease(Object.entries(sources).map(([id, source]) => spec(id, source)), opts());
    const hashes = Object.fromEntries(publish.inputs.map((i) => [i.name, i.sha256]));
    expect(Object.keys(hashes).sort()).toEqual(Object.keys(sources).sort());
    for (const id of ['rezipped', 'nested', 'windows', 'directory']) expect(hashes[id], id).toBe(hashes.original);
    expect(hashes.changed).not.toBe(hashes.original);

    // the CRLF/BOM copy also builds the same rows (one build: VIA's calendar runs to 2059)
    const windowsOnly = await prepareTransitRelease([spec('windows', windows)], opts());
    const outcome = await windowsOnly.build(await mkdtemp(path.join(root, 'staging-')));
    expect(outcome.coverage?.[0]).toMatchObject({ feed_id: 'windows', stops: 372, trips: 149, stop_times: 2213 });
  });

  it('dates a directory feed by its newest .txt file and a zip by its mtime', async () => {
    const dir = path.join(root, 'stq-dir');
    await mkdir(dir);
    await extractFeedZip(STQ_ZIP, dir);
    for (const name of await readdir(dir)) await utimes(path.join(dir, name), new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await utimes(path.join(dir, 'stops.txt'), new Date('2026-02-03T04:05:06Z'), new Date('2026-02-03T04:05:06Z'));
    const publish = await prepareTransitRelease([spec('dir', dir), spec('zip', STQ_ZIP)], opts());
    expect(publish.inputs.find((i) => i.name === 'dir')!.source_updated_at).toBe('2026-02-03T04:05:06.000Z');
    expect(publish.inputs.find((i) => i.name === 'zip')!.source_updated_at).toBe((await stat(STQ_ZIP)).mtime.toISOString());
  });
});

describe('publishing', () => {
  let env: TestEnv;
  beforeAll(async () => {
    env = await createTestEnv('gtfs_sources');
  });
  afterAll(async () => {
    await env?.cleanup();
  });

  it('publishes transit.duckdb with coverage and reuses the release on an identical rerun', async () => {
    const pool = createPool(env.config.databaseUrl);
    try {
      const deps = { pool, releasesDir: env.config.releasesDir };
      const feeds = [spec('stq', STQ_ZIP), spec('ggl', GGL_ZIP)];
      const first = await publishRelease(deps, await prepareTransitRelease(feeds, opts()));
      expect(first.reused).toBe(false);
      expect((await readdir(first.release.path)).sort()).toEqual(['manifest.json', TRANSIT_DATABASE_FILE]);
      expect(first.release.manifest.coverage?.map((c) => [c.feed_id, c.status])).toEqual([['stq', 'included'], ['ggl', 'refused']]);
      expect(first.release.manifest.stats).toMatchObject({ feeds_included: 1, feeds_refused: 1, stop_times: 1324 });

      const second = await publishRelease(deps, await prepareTransitRelease(feeds, opts()));
      expect(second).toMatchObject({ reused: true, release: { id: first.release.id } });
    } finally {
      await pool.end();
    }
  });

  it('makes a new release when only what the coverage says changes: a gap, or a feed that ends up refused', async () => {
    const pool = createPool(env.config.databaseUrl);
    try {
      const deps = { pool, releasesDir: env.config.releasesDir };
      const publish = async (feeds: FeedSpec[]) => publishRelease(deps, await prepareTransitRelease(feeds, opts()));
      const stq = { ...spec('stq', STQ_ZIP), gap: 'winter schedule only' };
      const base = await publish([stq]);
      expect(base.release.manifest.coverage?.[0]).toMatchObject({ feed_id: 'stq', gap: 'winter schedule only' });

      const regapped = await publish([{ ...stq, gap: 'winter and spring schedules' }]);
      expect(regapped.reused).toBe(false);
      expect(regapped.release.contentHash).not.toBe(base.release.contentHash);
      expect(regapped.release.manifest.coverage?.[0]).toMatchObject({ feed_id: 'stq', gap: 'winter and spring schedules' });

      const withRefused = await publish([stq, spec('ggl', GGL_ZIP)]);
      expect(withRefused.reused).toBe(false);
      expect(new Set([base, regapped, withRefused].map((p) => p.release.contentHash)).size).toBe(3);
      expect(withRefused.release.manifest.coverage?.map((c) => [c.feed_id, c.status])).toEqual([['stq', 'included'], ['ggl', 'refused']]);
      // the included inputs are the same in all three
      expect(withRefused.release.manifest.inputs).toEqual(base.release.manifest.inputs);

      expect(await publish([stq])).toMatchObject({ reused: true, release: { id: base.release.id } });
      expect(await publish([stq, spec('ggl', GGL_ZIP)])).toMatchObject({ reused: true, release: { id: withRefused.release.id } });
    } finally {
      await pool.end();
    }
  });

  it('names the DuckDB library that computed the zone offsets in the builder version', async () => {
    const instance = await DuckDBInstance.create(':memory:');
    try {
      const [row] = (await (await instance.connect()).runAndReadAll('SELECT version() AS v')).getRowObjectsJS() as { v: string }[];
      expect(TRANSIT_BUILDER_VERSION).toBe(`transit-2+duckdb-${row!.v.replace(/^v/, '')}`);
    } finally {
      instance.closeSync();
    }
    const publish = await prepareTransitRelease([spec('stq', STQ_ZIP)], opts());
    await publish.dispose();
    expect(publish.builderVersion).toBe(TRANSIT_BUILDER_VERSION);
  });
});
