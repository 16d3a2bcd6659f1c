import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { checkStoredRelease } from '../../releases/object-store/check-release.ts';
import { ReleaseBucket } from '../../releases/object-store/s3-client.ts';
import { parseStoreUrl } from '../../releases/object-store/store-url.ts';
import { getEnabledRelease } from '../../releases/registry.ts';
import { stopCanmapProcess, runCanmap, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { repoPath } from '../support/paths.ts';
import { S3_TEST_CREDENTIALS, startS3Server, type TestS3Server } from '../support/s3-server.ts';

let env: TestEnv;
let pool: Pool;
let s3: TestS3Server;
let worker: WorkerProcess | undefined;
let scratch = '';

beforeAll(async () => {
  Object.assign(process.env, S3_TEST_CREDENTIALS);
  s3 = await startS3Server();
  env = await createTestEnv('s3_worker');
  pool = createPool(env.config.databaseUrl, 2);
  scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-s3-worker-'));
});

afterAll(async () => {
  await stopCanmapProcess(worker);
  await pool?.end();
  await env?.cleanup();
  await s3?.close();
  if (scratch) await rm(scratch, { recursive: true, force: true });
});

describe('a worker with RELEASE_STORE', () => {
  it('publishes an ingest to the store, registers it, and enables it after checking the store copy', async () => {
    const demo = JSON.parse(await readFile(repoPath('samples/catalog/demo.catalog.json'), 'utf8'));
    const layer = demo.layers.find((l: { id: string }) => l.id === 'municipalities');
    layer.source_layers[0].input.path = repoPath('samples/catalog', layer.source_layers[0].input.path);
    const definition = path.join(scratch, 'one.catalog.json');
    await writeFile(definition, JSON.stringify({ layers: [layer] }));

    const storeEnv = { ...env.env, ...s3.env('worker') };
    worker = await startWorkerProcess(storeEnv);
    const run = await runCanmap(['ingest', 'catalog', '--definition', definition, '--enable', '--wait', '--json'], storeEnv);
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const enabled = await getEnabledRelease(pool, 'catalog');
    expect(enabled?.id).toBe((JSON.parse(run.stdout) as { release: string }).release);
    const bucket = new ReleaseBucket(parseStoreUrl(s3.storeUrl('worker')), { endpoint: s3.endpoint });
    try {
      expect(await checkStoredRelease(bucket, enabled!, { hash: true })).toEqual({ ok: true, problems: [] });
    } finally {
      bucket.close();
    }
  }, 180_000);
});
