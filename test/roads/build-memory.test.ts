/**
 * ROADS_BUILD_MEMORY_MB: validated with the other settings, and a roads build estimated over it
 * fails before writing anything — naming the setting — and leaves no release behind.
 */
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readGraphFile } from '../../engines/routing/graph-file.ts';
import { GRAPH_ARRAY_NAMES } from '../../engines/routing/graph-format.ts';
import { InvalidInputError } from '../../ingest/errors.ts';
import { RoadsBuildMemoryError, checkContractionMemory, estimateRoadBuild } from '../../ingest/roads/build-memory.ts';
import { writeRoadFiles } from '../../ingest/roads/write-road-files.ts';
import { roadsKind } from '../../jobs/kinds/roads.ts';
import { ConfigError, loadConfig } from '../../lib/config.ts';
import { createPool, type Pool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { listReleases } from '../../releases/registry.ts';
import { STAGING_DIR } from '../../releases/staging.ts';
import { ROADS_CH_FILE, ROADS_GRAPH_FILE, ROADS_KIND } from '../../schemas/roads-release.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';
import { sharedData } from '../support/paths.ts';
import { syntheticRoadGraph } from '../support/routing/synthetic-graph.ts';

const MIB = 2 ** 20;
const GRAPH = { nodes: 20_000, seed: 5 };

describe('ROADS_BUILD_MEMORY_MB', () => {
  it('defaults to 12 GiB and takes a whole number of MiB from 256', () => {
    expect(loadConfig({}).roadsBuildMemoryMb).toBe(12288);
    expect(loadConfig({ ROADS_BUILD_MEMORY_MB: '256' }).roadsBuildMemoryMb).toBe(256);
    expect(loadConfig({ ROADS_BUILD_MEMORY_MB: '65536' }).roadsBuildMemoryMb).toBe(65536);
  });

  it.each(['0', '255', '-1', '1.5', '8GB', '1048577'])('refuses ROADS_BUILD_MEMORY_MB=%s at startup', (value) => {
    expect(() => loadConfig({ ROADS_BUILD_MEMORY_MB: value })).toThrow(ConfigError);
    expect(() => loadConfig({ ROADS_BUILD_MEMORY_MB: value })).toThrow(/ROADS_BUILD_MEMORY_MB/);
  });
});

describe('a roads build within its memory budget', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-roads-memory-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('estimates more for a larger graph, the graph\'s own arrays included', () => {
    const small = estimateRoadBuild(syntheticRoadGraph(GRAPH), 1);
    const large = estimateRoadBuild(syntheticRoadGraph({ ...GRAPH, nodes: 4 * GRAPH.nodes }), 1);
    expect(large.bytes).toBeGreaterThan(small.bytes);
    expect(large.graphBytes).toBeGreaterThan(3 * small.graphBytes);
    expect(small.budgetBytes).toBe(MIB);
  });

  it('checks the contraction again from its input: arrival nodes of restriction regions count', () => {
    const roadNodesOnly = checkContractionMemory(1_000_000, 2_500_000, 1024);
    const withArrivals = checkContractionMemory(1_300_000, 3_000_000, 1024);
    expect(withArrivals.bytes).toBeGreaterThan(roadNodesOnly.bytes);
    const over = Math.ceil(withArrivals.bytes / MIB) - 1;
    expect(() => checkContractionMemory(1_300_000, 3_000_000, over)).toThrow(RoadsBuildMemoryError);
    expect(() => checkContractionMemory(1_300_000, 3_000_000, over)).toThrow(`1,300,000 hierarchy nodes`);
    expect(() => checkContractionMemory(1_300_000, 3_000_000, over)).toThrow(`over ROADS_BUILD_MEMORY_MB=${over}`);
    expect(checkContractionMemory(1_300_000, 3_000_000, over + 1).bytes).toBe(withArrivals.bytes);
  });

  it('fails one MiB under its estimate before writing a file, naming the setting', async () => {
    const arrays = syntheticRoadGraph(GRAPH);
    const budgetMb = Math.ceil(estimateRoadBuild(arrays, 0).bytes / MIB) - 1;
    const out = await mkdtemp(path.join(dir, 'over-'));
    const failed = writeRoadFiles(out, arrays, { memoryBudgetMb: budgetMb });
    await expect(failed).rejects.toThrow(RoadsBuildMemoryError);
    await expect(failed).rejects.toThrow(`over ROADS_BUILD_MEMORY_MB=${budgetMb}; nothing was written`);
    expect(await readdir(out)).toEqual([]);
    // The arrays are untouched by a refused build.
    expect(arrays.edgeTarget.length).toBeGreaterThan(GRAPH.nodes);
  });

  it('builds at its estimate, writing the graph it was given though the arrays are given back', async () => {
    const arrays = syntheticRoadGraph(GRAPH);
    const same = syntheticRoadGraph(GRAPH);
    // Room for the contraction's second estimate too (its arrival nodes are known only then).
    const budgetMb = Math.ceil(estimateRoadBuild(arrays, 0).bytes / MIB) + 16;
    const out = await mkdtemp(path.join(dir, 'within-'));
    const files = await writeRoadFiles(out, arrays, { memoryBudgetMb: budgetMb });
    expect((await readdir(out)).sort()).toEqual([ROADS_CH_FILE, ROADS_GRAPH_FILE].sort());
    expect(files.nodes).toBe(same.nodeLng.length);
    expect(files.estimate.bytes).toBeLessThanOrEqual(budgetMb * MIB);
    expect(arrays.edgeTarget.length).toBe(0);
    const written = await readGraphFile(path.join(out, ROADS_GRAPH_FILE));
    const bytes = (a: ArrayBufferView) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
    for (const name of GRAPH_ARRAY_NAMES) expect(bytes(written[name]).equals(bytes(same[name])), name).toBe(true);
  });
});

describe('the roads job over its memory budget', () => {
  let env: TestEnv;
  let pool: Pool;
  beforeAll(async () => {
    env = await createTestEnv('roads_memory');
    pool = createPool(env.config.databaseUrl, 2);
  }, 60_000);
  afterAll(async () => {
    await pool?.end();
    await env?.cleanup();
  });

  it('fails without retries, leaving no release, no staging and no registry row', async () => {
    const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-roads-memory-work-'));
    try {
      const config = { ...env.config, roadsBuildMemoryMb: 1 };
      const spec = await roadsKind.prepare(
        { osm: sharedData('osm/graphhopper-andorra.osm.pbf'), enable: true }, { config, workDir, onProgress: () => {} },
      );
      const published = publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
      await expect(published).rejects.toThrow(RoadsBuildMemoryError);
      await expect(published).rejects.toBeInstanceOf(InvalidInputError); // the job layer's "do not retry"
      await expect(published).rejects.toThrow(/estimated .* MiB at its peak .* over ROADS_BUILD_MEMORY_MB=1;/);
    } finally {
      await rm(workDir, { recursive: true, force: true });
    }
    expect(await listReleases(pool, ROADS_KIND)).toEqual([]);
    const left = await readdir(env.config.releasesDir);
    expect(left).not.toContain(ROADS_KIND);
    expect(left.includes(STAGING_DIR) ? await readdir(path.join(env.config.releasesDir, STAGING_DIR)) : []).toEqual([]);
  }, 120_000);
});
