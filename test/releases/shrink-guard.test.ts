import { createHash } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { Pool } from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueIngest } from '../../jobs/enqueue.ts';
import type { IngestKind } from '../../jobs/kind.ts';
import { openQueue } from '../../jobs/queues.ts';
import { waitForJob } from '../../jobs/watch.ts';
import { startWorkers } from '../../jobs/worker.ts';
import { createPool } from '../../lib/postgres.ts';
import { createRedis } from '../../lib/redis.ts';
import { diffManifests } from '../../releases/diff.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, getEnabledRelease, getRelease, releaseHistory, rollbackKind, type RegisteredRelease } from '../../releases/registry.ts';
import { describeFall, fallenCounts, ShrinkRefusedError } from '../../releases/shrink.ts';
import { runCanmap } from '../support/canmap-process.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

let t: TestEnv;
let pool: Pool;
let counter = 0;

beforeAll(async () => {
  t = await createTestEnv('shrink_guard');
  pool = createPool(t.config.databaseUrl, 4);
});
afterAll(async () => {
  await pool?.end();
  await t?.cleanup();
});

/** A release of `kind` whose manifest carries `stats` (a new release every call). */
async function publishWithStats(kind: string, stats: Record<string, unknown>): Promise<RegisteredRelease> {
  counter += 1;
  const { release } = await publishRelease({ pool, releasesDir: t.config.releasesDir }, {
    kind,
    builderVersion: 'shrink-probe-1',
    schemaVersion: 1,
    inputs: [{ name: 'n', source: 'memory', sha256: createHash('sha256').update(`${kind}-${counter}`).digest('hex') }],
    async build(dir) {
      await writeFile(path.join(dir, 'data.txt'), String(counter));
      return { stats };
    },
  });
  return release;
}

// As a geocoding corpus built from one 3-row OpenAddresses CSV compares with a full one.
const FULL = { rows: { locality: 1234, address: 50, region: 13 }, localities_read: 1234, addresses_dropped: 7, build_seconds: 40 };
const ADDRESSES_ONLY = { rows: { address: 3, region: 13 }, localities_read: 0, addresses_dropped: 0, build_seconds: 2 };

describe('the counts that fall', () => {
  it('are the numeric stats (nested ones too) that fall by more than 10 %, a missing one counting as 0; timings and dropped rows are not counts', async () => {
    const a = await publishWithStats('shrink-unit', FULL);
    const b = await publishWithStats('shrink-unit', ADDRESSES_ONLY);
    const fallen = fallenCounts(a.manifest, b.manifest);
    expect(fallen).toEqual([
      { stat: 'localities_read', from: 1234, to: 0 },
      { stat: 'rows.address', from: 50, to: 3 },
      { stat: 'rows.locality', from: 1234, to: 0 },
    ]);
    expect(fallen.map(describeFall)).toEqual(['localities_read 1,234 → 0 (−100 %)', 'rows.address 50 → 3 (−94 %)', 'rows.locality 1,234 → 0 (−100 %)']);
    // releases diff shows the same comparison, one row per nested count.
    expect(diffManifests(a.manifest, b.manifest)).toEqual(expect.arrayContaining([{ field: 'stats.rows.locality', a: 1234, b: null }, { field: 'stats.rows.address', a: 50, b: 3, delta: -47 }]));
  });

  it('allow a fall of exactly 10 %, not more', async () => {
    const base = await publishWithStats('shrink-edge', { features: 1000 });
    expect(fallenCounts(base.manifest, (await publishWithStats('shrink-edge', { features: 900 })).manifest)).toEqual([]);
    expect(fallenCounts(base.manifest, (await publishWithStats('shrink-edge', { features: 899 })).manifest)).toEqual([{ stat: 'features', from: 1000, to: 899 }]);
  });

  it('leave out counts of problems and measures, camelCase names included (the roads build writes them)', async () => {
    const before = { restrictions: { applied: 100, unplaceable: 20, viaWayNotApplied: 5 }, grades: { clamped: 9, netReliefMetres: 300 }, missingNodes: 4, bounds: [-123, 49, -122, 50] };
    const after = { restrictions: { applied: 98, unplaceable: 2, viaWayNotApplied: 0 }, grades: { clamped: 1, netReliefMetres: 120 }, missingNodes: 0, bounds: [-123, 45, -122, 46] };
    const a = await publishWithStats('shrink-problems', before);
    expect(fallenCounts(a.manifest, (await publishWithStats('shrink-problems', after)).manifest)).toEqual([]);
    const fewerApplied = { ...after, restrictions: { ...after.restrictions, applied: 80 } };
    expect(fallenCounts(a.manifest, (await publishWithStats('shrink-problems', fewerApplied)).manifest)).toEqual([{ stat: 'restrictions.applied', from: 100, to: 80 }]);
  });
});

describe('enableRelease', () => {
  it('refuses a release whose counts fall by more than 10 %, records the refusal, and enables it with allowShrink', async () => {
    const full = await publishWithStats('shrink-geo', FULL);
    await enableRelease(pool, full.id, 'test');
    const small = await publishWithStats('shrink-geo', ADDRESSES_ONLY);

    const refused = await enableRelease(pool, small.id, 'test').catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(ShrinkRefusedError);
    expect((refused as Error).message).toContain('rows.locality 1,234 → 0 (−100 %)');
    expect((await getEnabledRelease(pool, 'shrink-geo'))?.id).toBe(full.id);
    expect((await releaseHistory(pool, 'shrink-geo', { limit: 1 }))[0]).toMatchObject({
      action: 'refused', releaseId: small.id, previousReleaseId: full.id, actor: 'test', note: expect.stringContaining('rows.locality 1,234 → 0 (−100 %)'),
    });

    await enableRelease(pool, small.id, 'test', { allowShrink: true });
    expect((await getEnabledRelease(pool, 'shrink-geo'))?.id).toBe(small.id);
    expect((await releaseHistory(pool, 'shrink-geo', { limit: 1 }))[0]).toMatchObject({ action: 'enable', releaseId: small.id, previousReleaseId: full.id, note: expect.stringContaining('rows.locality') });
  });

  it('does not guard a rollback: it returns to a release that was in service, however much smaller', async () => {
    const small = await publishWithStats('shrink-rollback', { features: 10 });
    await enableRelease(pool, small.id, 'test');
    const big = await publishWithStats('shrink-rollback', { features: 1000 });
    await enableRelease(pool, big.id, 'test');
    expect((await rollbackKind(pool, 'shrink-rollback', 'test')).to.id).toBe(small.id);
  });
});

describe('canmap releases enable', () => {
  it('exits 1 naming each count that falls and how to enable anyway; --allow-shrink enables it', async () => {
    const full = await publishWithStats('shrink-cli', FULL);
    expect((await runCanmap(['releases', 'enable', full.id], t.env)).code).toBe(0);
    const small = await publishWithStats('shrink-cli', ADDRESSES_ONLY);

    const refused = await runCanmap(['releases', 'enable', small.id], t.env);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('rows.locality 1,234 → 0 (−100 %)');
    expect(refused.stderr).toContain('localities_read 1,234 → 0 (−100 %)');
    expect(refused.stderr).toContain(`canmap releases enable ${small.id} --allow-shrink`);
    expect((await getEnabledRelease(pool, 'shrink-cli'))?.id).toBe(full.id);
    const history = JSON.parse((await runCanmap(['releases', 'show', small.id, '--json'], t.env)).stdout) as { history: { action: string }[] };
    expect(history.history[0]).toMatchObject({ action: 'refused' });
    const shown = (await runCanmap(['releases', 'show', small.id], t.env)).stdout;
    expect(shown).toMatch(new RegExp(`history:\\n.*\\n.* refused +${small.id} +${full.id} .*rows\\.locality 1,234 → 0`));

    const allowed = await runCanmap(['releases', 'enable', small.id, '--allow-shrink', '--json'], t.env);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(JSON.parse(allowed.stdout)).toEqual({ kind: 'shrink-cli', enabled: small.id, previous: full.id });
  });
});

describe('an ingest job asked to enable', () => {
  it('publishes a shrunk release without enabling it, logs why, and completes', async () => {
    const kind: IngestKind<{ size: number; enable: boolean }> = {
      kind: 'shrink-job',
      payloadSchema: Type.Object({ size: Type.Integer(), enable: Type.Boolean() }, { additionalProperties: false }),
      cli: { usage: 'shrink-job', options: {}, toPayload: async () => ({ size: 0 }) },
      jobKey: (p) => String(p.size),
      async prepare(payload) {
        return {
          kind: 'shrink-job',
          builderVersion: 'shrink-job-1',
          schemaVersion: 1,
          inputs: [{ name: 'size', source: 'test', sha256: createHash('sha256').update(String(payload.size)).digest('hex') }],
          async build(dir) {
            await writeFile(path.join(dir, 'data.txt'), String(payload.size));
            return { stats: { features: payload.size } };
          },
        };
      },
    };
    const lines: string[] = [];
    const redis = createRedis(t.config.redisUrl);
    const workers = await startWorkers(t.config, { kinds: [kind], log: (level, line) => lines.push(`${level} ${line}`) });
    const queue = openQueue(t.config, kind.kind, redis);
    try {
      const run = async (size: number) => {
        const { jobId } = await enqueueIngest(t.config, queue, kind, { size, enable: true });
        const outcome = await waitForJob(queue, jobId, () => {}, 50);
        if (!outcome.ok) throw new Error(outcome.reason);
        return outcome.result;
      };
      const big = await run(100);
      expect(big.enabled).toBe(true);
      const small = await run(5);
      expect(small).toMatchObject({ enabled: false, reused: false, notEnabled: expect.stringContaining('features 100 → 5 (−95 %)') });
      expect(await getRelease(pool, small.release)).not.toBeNull();
      expect((await getEnabledRelease(pool, 'shrink-job'))?.id).toBe(big.release);
      expect(lines.some((l) => l.startsWith('warn') && l.includes('features 100 → 5') && l.includes(`canmap releases enable ${small.release} --allow-shrink`))).toBe(true);
      expect((await releaseHistory(pool, 'shrink-job', { limit: 1 }))[0]).toMatchObject({ action: 'refused', releaseId: small.release, actor: expect.stringMatching(/^job:/) });
    } finally {
      await queue.close();
      await workers.close();
      redis.disconnect();
    }
  });
});
