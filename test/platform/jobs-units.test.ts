import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobIdFor } from '../../jobs/job-id.ts';
import { canonicalJson } from '../../lib/canonical-json.ts';
import type { JobProgress } from '../../jobs/kind.ts';
import { createProgressReporter } from '../../jobs/progress.ts';
import { removeDeadStaging, stagingRoot } from '../../releases/staging.ts';

describe('job ids', () => {
  it('canonical JSON ignores key order at every level', () => {
    const a = canonicalJson([{ id: 'x', source: '/a.zip', meta: { b: 1, a: [{ z: 1, y: 2 }] } }]);
    const b = canonicalJson([{ meta: { a: [{ y: 2, z: 1 }], b: 1 }, source: '/a.zip', id: 'x' }]);
    expect(a).toBe(b);
    expect(a).toBe('[{"id":"x","meta":{"a":[{"y":2,"z":1}],"b":1},"source":"/a.zip"}]');
    expect(canonicalJson([{ id: 'x' }, { id: 'y' }])).not.toBe(canonicalJson([{ id: 'y' }, { id: 'x' }]));
  });

  it('ids are <kind>-<16 hex>, stable, and never contain ":"', () => {
    const id = jobIdFor('transit', 'svc:transit:key');
    expect(id).toMatch(/^transit-[0-9a-f]{16}$/);
    expect(jobIdFor('transit', 'svc:transit:key')).toBe(id);
    expect(jobIdFor('transit', 'other')).not.toBe(id);
  });
});

describe('progress reporter', () => {
  it('never goes backwards, coalesces small steps and reports message changes as milestones', async () => {
    const written: JobProgress[] = [];
    const milestones: string[] = [];
    const reporter = createProgressReporter(
      { updateProgress: async (p) => void written.push(p as JobProgress) },
      (p) => milestones.push(`${p.fraction} ${p.message}`),
    );
    reporter.report({ fraction: 0.2, message: 'reading' });
    reporter.report({ fraction: 0.201, message: 'reading' }); // below the 1% step
    reporter.report({ fraction: 0.1, message: 'reading' }); // backwards
    reporter.report({ fraction: 0.5, message: '' }); // keeps the message
    reporter.report({ fraction: 0.4, message: 'building' });
    reporter.report({ fraction: 1, message: 'building' });
    await reporter.flush();
    expect(milestones).toEqual(['0.2 reading', '0.5 building']);
    expect(written.at(-1)).toEqual({ fraction: 1, message: 'building' });
    expect(written.map((p) => p.fraction)).toEqual([...written.map((p) => p.fraction)].sort((a, b) => a - b));
    expect(written.some((p) => p.fraction === 0.201 || p.fraction === 0.1)).toBe(false);
  });

  it('a failing progress write does not fail the job', async () => {
    const reporter = createProgressReporter({ updateProgress: async () => Promise.reject(new Error('Missing lock')) }, () => {});
    reporter.report({ fraction: 0.5, message: 'x' });
    await expect(reporter.flush()).resolves.toBeUndefined();
  });
});

describe('staging cleanup', () => {
  const dirs: string[] = [];
  afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

  it('removes staging dirs of dead pids (and of our own pid from an earlier life), keeps live ones', async () => {
    const releasesDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-staging-'));
    dirs.push(releasesDir);
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    const root = stagingRoot(releasesDir);
    const host = os.hostname();
    const names = {
      dead: `${host}~${dead}~transit-0b5e`,
      deadWork: `${host}~${dead}~work-transit-x-abc`,
      live: `${host}~${process.ppid}~live`,
      mine: `${host}~${process.pid}~mine`,
      otherHost: `elsewhere.example~${dead}~transit-1`,
    };
    for (const name of [...Object.values(names), 'not-staging']) {
      await mkdir(path.join(root, name, 'sub'), { recursive: true });
    }
    const removed = await removeDeadStaging(releasesDir);
    expect(removed.sort()).toEqual([names.dead, names.deadWork, names.mine].sort());
    expect((await readdir(root)).sort()).toEqual([names.live, names.otherHost, 'not-staging'].sort());
    expect(await removeDeadStaging(path.join(releasesDir, 'missing'))).toEqual([]);
  });
});
