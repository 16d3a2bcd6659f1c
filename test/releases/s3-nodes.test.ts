import { access, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCatalogRelease } from '../../ingest/catalog/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { ReleaseBucket } from '../../releases/object-store/s3-client.ts';
import { parseStoreUrl, releaseKeyPrefix } from '../../releases/object-store/store-url.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { runCanmap, startApiProcess, type CanmapProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.ts';

const TILE = '/layers/municipalities/10/187/342';
const PREFIX = 'shared';

interface Node {
  proc: CanmapProcess;
  dir: string;
  api: string;
  admin: string;
}

let env: TestEnv;
let pool: Pool;
let s3: TestS3Server;
let bucket: ReleaseBucket;
let key = '';
let scratch = '';
const nodes: Node[] = [];
const releases: RegisteredRelease[] = [];

/** One-layer catalogs over the sample municipalities that differ only in a policy text (so in their id). */
async function buildEditions(count: number): Promise<void> {
  const demo = JSON.parse(await readFile(repoPath('samples/catalog/demo.catalog.json'), 'utf8'));
  const layer = demo.layers.find((l: { id: string }) => l.id === 'municipalities');
  layer.source_layers[0].input.path = repoPath('samples/catalog', layer.source_layers[0].input.path);
  for (let i = 0; i < count; i += 1) {
    const file = path.join(scratch, `edition-${i}.catalog.json`);
    await writeFile(file, JSON.stringify({ layers: [{ ...layer, freshness_policy: `edition ${i}` }] }));
    const workDir = await mkdtemp(path.join(scratch, 'work-'));
    // The builder (a worker host) has its own RELEASES_DIR, shared with no API node.
    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir, store: bucket }, await prepareCatalogRelease(file, { workDir }));
    releases.push(release);
  }
}

/** `canmap serve` with a RELEASES_DIR and meter journal of its own, on the shared Postgres, Redis prefix and store. */
async function startNode(name: string): Promise<Node> {
  const dir = await mkdtemp(path.join(scratch, `${name}-`));
  const { proc, api, admin } = await startApiProcess({
    ...env.env,
    ...s3.env(PREFIX),
    RELEASES_DIR: path.join(dir, 'releases'),
    METER_JOURNAL_DIR: path.join(dir, 'journal'),
    BYOD_DIR: path.join(dir, 'byod'),
    RELEASE_POLL_SECONDS: '1',
  }, 90_000);
  const node = { proc, dir, api, admin };
  nodes.push(node);
  return node;
}

const tile = (node: Node) => fetch(node.api + TILE, { headers: { authorization: `Bearer ${key}` } });

async function servedId(node: Node): Promise<string | null> {
  const answer = await tile(node);
  await answer.arrayBuffer();
  return answer.status === 200 ? answer.headers.get('etag')!.replace(/"/g, '') : null;
}

async function waitUntil(what: string, check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

const exists = (p: string) => access(p).then(() => true, () => false);
const cached = (node: Node, release: RegisteredRelease) => path.join(node.dir, 'releases', release.kind, release.id);
const cli = (args: string[]) => runCanmap(['releases', ...args, '--json'], { ...env.env, ...s3.env(PREFIX), LOG_LEVEL: 'silent' });

beforeAll(async () => {
  Object.assign(process.env, S3_TEST_CREDENTIALS);
  s3 = await startS3Server();
  env = await createTestEnv('s3_nodes');
  pool = createPool(env.config.databaseUrl, 2);
  bucket = new ReleaseBucket(parseStoreUrl(s3.storeUrl(PREFIX)), { endpoint: s3.endpoint });
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-s3-nodes-'));
  key = (await createKey(pool, {})).key;
  await buildEditions(3);
  await enableRelease(pool, releases[0]!.id, 's3 test', { store: bucket });
}, 180_000);

afterAll(async () => {
  for (const node of nodes) {
    if (node.proc.child.exitCode === null && node.proc.child.signalCode === null) node.proc.child.kill('SIGTERM');
    await node.proc.exited;
  }
  bucket?.close();
  await pool?.end();
  await env?.cleanup();
  await s3?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('several API hosts sharing releases through an S3-compatible store', () => {
  it('serves the enabled release from two nodes that share no disk, each from its own downloaded copy', async () => {
    const [a, b] = [await startNode('node-a'), await startNode('node-b')];
    const first = releases[0]!;
    for (const node of [a, b]) {
      expect(await servedId(node)).toBe(first.id);
      expect(await exists(path.join(cached(node, first), 'manifest.json'))).toBe(true);
      const health = await (await fetch(`${node.admin}/healthz`)).json();
      expect(health.releases.catalog).toMatchObject({ id: first.id, state: 'ready', sync: { releaseId: first.id, state: 'synced', failures: 0 } });
      expect((await fetch(`${node.admin}/readyz`)).status).toBe(200);
    }
    // The registered path is the builder's, which neither node has.
    expect(first.path.startsWith(env.config.releasesDir)).toBe(true);
  }, 120_000);

  it('swaps both nodes to a newly enabled release under load without a failed request', async () => {
    const [a, b] = nodes as [Node, Node];
    const second = releases[1]!;
    const statuses = new Map<number, number>();
    const seen = new Set<string>();
    let stop = false;
    const client = async (node: Node) => {
      while (!stop) {
        const answer = await tile(node);
        await answer.arrayBuffer();
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        seen.add(String(answer.headers.get('etag')));
      }
    };
    const clients = [a, b, a, b].map(client);
    await new Promise((r) => setTimeout(r, 300));
    const enabled = await cli(['enable', second.id]);
    expect(enabled.code, enabled.stderr).toBe(0);
    await waitUntil('both nodes to serve the second release', async () => (await servedId(a)) === second.id && (await servedId(b)) === second.id);
    await new Promise((r) => setTimeout(r, 300));
    stop = true;
    await Promise.all(clients);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(50);
    expect(seen).toEqual(new Set([`"${releases[0]!.id}"`, `"${second.id}"`]));
  }, 120_000);

  it('has a node started later fetch the enabled release before it reports ready', async () => {
    const second = releases[1]!;
    const c = await startNode('node-c');
    // Ready means served: no request after the ready line fails.
    expect((await fetch(`${c.admin}/readyz`)).status).toBe(200);
    expect(await servedId(c)).toBe(second.id);
    expect(await readdir(path.join(c.dir, 'releases', 'catalog'))).toEqual([second.id]);
  }, 120_000);

  it('verifies the store copy, and prunes the store and every cache', async () => {
    const [first, second, third] = releases as [RegisteredRelease, RegisteredRelease, RegisteredRelease];
    const verified = await cli(['verify', second.id]);
    expect(verified.code, verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ id: second.id, ok: true, problems: [] });

    // A damaged object in the store fails verify (and an enable of it).
    const damagedKey = `${releaseKeyPrefix(bucket.location, third.kind, third.id)}${third.manifest.artifacts[0]!.path}`;
    const original = path.join(scratch, 'original');
    await bucket.download(damagedKey, original);
    await bucket.putText(damagedKey, 'not the artifact', third.manifest.artifacts[0]!.sha256);
    const failed = await cli(['verify', third.id]);
    expect(failed.code).toBe(1);
    expect(JSON.parse(failed.stdout).problems.join('\n')).toContain(third.manifest.artifacts[0]!.path);
    const refused = await cli(['enable', third.id]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toMatch(/fails verification in the release store/);
    await bucket.upload(damagedKey, original, third.manifest.artifacts[0]!.sha256);

    // third enabled: second is its rollback target, first is prunable.
    expect((await cli(['enable', third.id])).code).toBe(0);
    for (const node of nodes) await waitUntil(`${node.api} to serve the third release`, async () => (await servedId(node)) === third.id);
    const pruned = await cli(['prune', '--keep', '0']);
    expect(pruned.code, pruned.stderr).toBe(0);
    expect(JSON.parse(pruned.stdout).removed.map((r: { id: string }) => r.id)).toEqual([first.id]);
    expect(await bucket.list(releaseKeyPrefix(bucket.location, first.kind, first.id))).toEqual([]);
    expect(await bucket.list(releaseKeyPrefix(bucket.location, second.kind, second.id))).not.toEqual([]);
    // Each node drops its copy of the pruned release at its next poll.
    for (const node of nodes.slice(0, 2)) await waitUntil(`${node.api} to drop its copy of ${first.id}`, async () => !(await exists(cached(node, first))));
    for (const node of nodes) expect(await servedId(node)).toBe(third.id);
  }, 180_000);
});
