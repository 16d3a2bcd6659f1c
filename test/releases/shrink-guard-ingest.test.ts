import { createHash } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Pool } from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, getEnabledRelease, getRelease } from '../../releases/registry.ts';
import { stopCanmapProcess, runCanmap, startCanmapProcess, startWorkerProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let t: TestEnv;
let pool: Pool;
let tmp: string;
const workers: WorkerProcess[] = [];

beforeAll(async () => {
  t = await createTestEnv('shrink_ingest');
  pool = createPool(t.config.databaseUrl, 2);
  tmp = await mkdtemp(path.join(os.tmpdir(), 'canmap-shrink-ingest-'));
});
afterAll(async () => {
  for (const w of workers) await stopCanmapProcess(w);
  await pool?.end();
  await t?.cleanup();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** Stands in for a full corpus: the enabled geocoding release's manifest counts 1,234 localities. */
async function enableFullCorpus(): Promise<string> {
  const { release } = await publishRelease({ pool, releasesDir: t.config.releasesDir }, {
    kind: 'geocoding',
    builderVersion: 'stand-in',
    schemaVersion: 1,
    inputs: [{ name: 'corpus', source: 'test', sha256: createHash('sha256').update('full').digest('hex') }],
    async build(dir) {
      await writeFile(path.join(dir, 'stand-in.txt'), 'full corpus');
      return { stats: { localities_read: 1234, rows: { locality: 1234, address: 3 } } };
    },
  });
  await enableRelease(pool, release.id, 'test');
  return release.id;
}

it('ingest --enable --wait: says no worker consumes the queue and keeps waiting; the built release that lost its localities is published, not enabled; --json reports the real enabled state', async () => {
  const full = await enableFullCorpus();
  const oa = path.join(tmp, 'oa.csv');
  await writeFile(oa, [
    'LON,LAT,NUMBER,STREET,UNIT,CITY,DISTRICT,REGION,POSTCODE,ID',
    '-75.68952,45.41678,43,Hanna Ave,,Ottawa,,ON,K1S 2M4,oa-1',
    '-75.69000,45.41700,45,Hanna Ave,,Ottawa,,ON,K1S 2M4,oa-2',
    '-75.69100,45.41800,47,Hanna Ave,,Ottawa,,ON,K1S 2M4,oa-3',
  ].join('\n'));
  const args = ['ingest', 'geocoding', '--input', `addresses-oa:${oa}`];

  // No worker yet: the CLI says so, and still waits.
  const waiting = await startCanmapProcess([...args, '--enable', '--wait', '--json'], t.env, /no worker is consuming the geocoding queue/, 60_000);
  expect(waiting.output()).toContain('start one with: canmap worker');
  expect(waiting.child.exitCode).toBeNull();
  workers.push(await startWorkerProcess(t.env));
  const { code } = await waiting.exited;
  expect(code, waiting.output()).toBe(1);
  const doc = JSON.parse(waiting.output().slice(waiting.output().indexOf('{'))) as { release: string; enabled: boolean; error: string };
  expect(doc).toMatchObject({ enabled: false, error: expect.stringContaining('localities_read 1,234 → 0 (−100 %)') });
  expect(doc.error).toMatch(/rows\.locality 1,234 → 1 \(−99\.9 %\)/);
  expect(await getRelease(pool, doc.release)).not.toBeNull();
  expect((await getEnabledRelease(pool, 'geocoding'))?.id).toBe(full);

  // Human output says how to enable it anyway; doing so works.
  const text = await runCanmap([...args, '--enable', '--wait'], t.env, 120_000);
  expect(text.code).toBe(1);
  expect(text.stdout).toContain(`canmap releases enable ${doc.release} --allow-shrink`);
  expect((await runCanmap(['releases', 'enable', doc.release, '--allow-shrink'], t.env)).code).toBe(0);

  // Same source again without --enable: the job reuses the release, which is enabled.
  const again = await runCanmap([...args, '--wait', '--json'], t.env, 120_000);
  expect(again.code, again.stderr).toBe(0);
  expect(JSON.parse(again.stdout)).toMatchObject({ release: doc.release, reused: true, enabled: true });
}, 300_000);
