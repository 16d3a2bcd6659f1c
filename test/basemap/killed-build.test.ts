import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWorkers } from '../../jobs/worker.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { getEnabledRelease, listReleases } from '../../releases/registry.ts';
import { runCanmap, startWorkerProcess, stopCanmapProcess, type WorkerProcess } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { sharedData } from '../support/paths.ts';

const EXTRACT = sharedData('osm/pelias-vancouver_canada.osm.pbf');
const PROVINCES = sharedData('geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson');

let t: TestEnv;
let pool: Pool;
let tempDir: string;
let worker: WorkerProcess | undefined;

beforeAll(async () => {
  tempDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-basemap-scratch-'));
  t = await createTestEnv('basemap_killed', { BASEMAP_BUILD_TEMP_DIR: tempDir, BASEMAP_BUILD_MEMORY_MB: '256' });
  pool = createPool(t.config.databaseUrl);
});

afterAll(async () => {
  await stopCanmapProcess(worker);
  await pool?.end();
  await t?.cleanup();
  await rm(tempDir, { recursive: true, force: true });
});

/** Every file under `dir`, relative. */
async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.relative(dir, path.join(e.parentPath, e.name)));
}

async function until<T>(probe: () => Promise<T | null>, what: string, timeoutMs = 60_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a basemap build killed part way', () => {
  it('publishes and enables nothing, and the next worker to start removes its scratch files from BASEMAP_BUILD_TEMP_DIR', async () => {
    worker = await startWorkerProcess(t.env);
    const queued = await runCanmap(['ingest', 'basemap', '--pbf', EXTRACT, '--provinces', PROVINCES, '--enable'], t.env);
    expect(queued.code).toBe(0);
    // The node table exists once the relations are read: the build is in the middle of the extract.
    const scratch = await until(async () => {
      const files = await filesUnder(tempDir);
      return files.some((f) => f.endsWith('nodes.table')) ? files : null;
    }, 'the build\'s node table');
    worker.child.kill('SIGKILL');
    await worker.exited;
    const [dead] = scratch.map((f) => f.split(path.sep)[0]!);
    expect(dead).toMatch(new RegExp(`~${worker.child.pid}~basemap-build-`));
    expect(await filesUnder(tempDir)).not.toEqual([]);
    expect(await listReleases(pool, 'basemap')).toEqual([]);
    expect(await getEnabledRelease(pool, 'basemap')).toBeNull();

    const lines: string[] = [];
    const next = await startWorkers(t.config, { kinds: [], log: (_level, line) => lines.push(line) });
    await next.close();
    expect(await readdir(tempDir)).toEqual([]);
    expect(lines.join('\n')).toContain(`removed 1 basemap build scratch dir(s) of dead processes from ${tempDir}: ${dead}`);
  }, 120_000);
});
