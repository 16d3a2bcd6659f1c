import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFile, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPool } from '../../lib/postgres.ts';
import { computeContentHash, releaseIdFor } from '../../releases/ids.ts';
import { publishRelease, type PublishSpec } from '../../releases/publish.ts';
import { stagingRoot } from '../../releases/staging.ts';
import { deleteRelease, enableRelease, getEnabledRelease, listReleases, RELEASE_ENABLED_CHANNEL, releaseHistory } from '../../releases/registry.ts';
import { verifyReleaseDir } from '../../releases/verify.ts';
import { createTestEnv, type TestEnv } from '../support/env.ts';

const run = promisify(execFile);
let env: TestEnv;
let pool: pg.Pool;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function probeSpec(content: string, extra: Partial<PublishSpec> = {}): PublishSpec {
  return {
    kind: 'probe',
    builderVersion: 'probe-1',
    schemaVersion: 1,
    inputs: [{ name: 'text', source: 'memory', sha256: sha256(content) }],
    async build(dir) {
      await writeFile(path.join(dir, 'data.txt'), content);
      return { stats: { length: content.length } };
    },
    ...extra,
  };
}

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run('node', ['bin/canmap.js', ...args], { env: { ...process.env, ...env.env } });
    return { code: 0, stdout, stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  env = await createTestEnv('releases');
  pool = createPool(env.config.databaseUrl, 4);
});
afterAll(async () => {
  await pool.end();
  await env.cleanup();
});

describe('release ids', () => {
  const a = { name: 'a', source: 'https://x/a.zip', sha256: sha256('a'), licence: 'CC-BY-4.0', attribution: 'A' };
  const b = { name: 'b', source: '/data/b', sha256: sha256('b') };
  const base = { builderVersion: 'b1', schemaVersion: 1, inputs: [a, b] };

  it('are the UTC build date and 12 hex of the content hash', () => {
    const hash = computeContentHash(base);
    expect(releaseIdFor(hash, new Date('2026-11-22T23:59:59-05:00'))).toBe(`2026-11-23-${hash.slice(0, 12)}`);
  });

  it('hash what the release is made of, not when its inputs were fetched', () => {
    const hash = computeContentHash(base);
    expect(computeContentHash({ ...base, inputs: [b, { ...a, source_updated_at: '2026-11-01T00:00:00Z' }] })).toBe(hash);
    for (const changed of [
      { ...base, builderVersion: 'b2' },
      { ...base, schemaVersion: 2 },
      { ...base, inputs: [{ ...a, sha256: sha256('a2') }, b] },
      { ...base, inputs: [{ ...a, attribution: 'A (corrected)' }, b] },
      { ...base, inputs: [{ ...a, source: 'https://mirror/a.zip' }, b] },
      { ...base, context: { refused: [{ id: 'c', reason: 'frequencies.txt has 3 rows' }] } },
    ]) {
      expect(computeContentHash(changed)).not.toBe(hash);
    }
  });
});

describe('publishRelease', () => {
  it('publishes an immutable, checksummed, registered release and reuses it for the same content', async () => {
    const first = await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec('hello'));
    expect(first.reused).toBe(false);
    expect(first.release.id).toMatch(/^\d{4}-\d{2}-\d{2}-[0-9a-f]{12}$/);
    const dir = path.join(env.config.releasesDir, 'probe', first.release.id);
    expect(first.release.path).toBe(dir);
    const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8'));
    expect(manifest.artifacts).toEqual([{ path: 'data.txt', bytes: 5, sha256: '2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824' }]);
    expect(manifest.stats).toEqual({ length: 5 });

    let built = false;
    const again = await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec('hello', { build: async () => { built = true; return { stats: {} }; } }));
    expect(again).toMatchObject({ reused: true, release: { id: first.release.id } });
    expect(built).toBe(false);
    expect(await readdir(stagingRoot(env.config.releasesDir))).toEqual([]);
  });

  it('leaves nothing visible when the build fails', async () => {
    const before = await listReleases(pool, 'probe');
    const failing = probeSpec('broken', {
      async build(dir) {
        await writeFile(path.join(dir, 'half.txt'), 'partial');
        throw new Error('source went away');
      },
    });
    await expect(publishRelease({ pool, releasesDir: env.config.releasesDir }, failing)).rejects.toThrow('source went away');
    expect(await listReleases(pool, 'probe')).toHaveLength(before.length);
    expect((await readdir(path.join(env.config.releasesDir, 'probe'))).sort()).toEqual(before.map((r) => r.id).sort());
    expect(await readdir(stagingRoot(env.config.releasesDir))).toEqual([]);
  });

  it('registers a release that reached disk but not the registry (worker died in between)', async () => {
    const spec = probeSpec('orphan');
    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
    await pool.query('DELETE FROM releases WHERE id = $1', [release.id]);
    const again = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
    expect(again).toMatchObject({ reused: true, release: { id: release.id } });
  });

  it('builds again when a registered release lost its files, unless it is in service', async () => {
    const spec = probeSpec('lost', { kind: 'lost-probe' });
    const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
    await rm(path.join(release.path, 'data.txt'));
    const rebuilt = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
    expect(rebuilt.reused).toBe(false);
    expect(await readFile(path.join(rebuilt.release.path, 'data.txt'), 'utf8')).toBe('lost');

    await enableRelease(pool, rebuilt.release.id, 'test');
    await rm(path.join(rebuilt.release.path, 'data.txt'));
    await expect(publishRelease({ pool, releasesDir: env.config.releasesDir }, spec)).rejects.toThrow(/is in service, but fails verification/);
    expect((await getEnabledRelease(pool, 'lost-probe'))?.id).toBe(rebuilt.release.id);
  });
});

describe('enable, rollback, verify, prune, diff (CLI)', () => {
  const ids: string[] = [];

  beforeAll(async () => {
    for (const text of ['v1', 'v2-longer', 'v3-longest']) {
      ids.push((await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec(text, { kind: 'cli-probe' }))).release.id);
    }
  });

  it('enables, notifies listeners, and rolls back step by step', async () => {
    const listener = new pg.Client({ connectionString: env.config.databaseUrl });
    await listener.connect();
    const notes: string[] = [];
    listener.on('notification', (n) => notes.push(n.payload ?? ''));
    await listener.query(`LISTEN ${RELEASE_ENABLED_CHANNEL}`);

    for (const id of ids) expect((await cli('releases', 'enable', id, '--json')).code).toBe(0);
    expect((await getEnabledRelease(pool, 'cli-probe'))?.id).toBe(ids[2]);
    await new Promise((r) => setTimeout(r, 200));
    expect(notes.map((n) => JSON.parse(n))).toEqual(ids.map((id) => ({ kind: 'cli-probe', id })));
    await listener.end();

    const back = await cli('releases', 'rollback', 'cli-probe', '--json');
    expect(JSON.parse(back.stdout)).toEqual({ kind: 'cli-probe', enabled: ids[1], previous: ids[2] });
    expect((await releaseHistory(pool, 'cli-probe', { limit: 1 }))[0]).toMatchObject({ action: 'rollback', releaseId: ids[1], previousReleaseId: ids[2] });
    expect(JSON.parse((await cli('releases', 'rollback', 'cli-probe', '--json')).stdout).enabled).toBe(ids[0]);
    const none = await cli('releases', 'rollback', 'cli-probe');
    expect(none.code).toBe(1);
    expect(none.stderr).toContain('has no earlier release to roll back to');
    await enableRelease(pool, ids[2]!, 'test');
  });

  it('lists and shows releases as tables and JSON', async () => {
    const listed = JSON.parse((await cli('releases', 'list', '--kind', 'cli-probe', '--json')).stdout);
    expect(listed.map((r: { id: string }) => r.id).sort()).toEqual([...ids].sort());
    expect(listed.find((r: { enabled: boolean }) => r.enabled).id).toBe(ids[2]);
    const text = await cli('releases', 'list', '--kind', 'cli-probe');
    expect(text.stdout).toMatch(/^ID\s+KIND\s+CREATED\s+ENABLED/);
    const shown = JSON.parse((await cli('releases', 'show', ids[2]!, '--json')).stdout);
    expect(shown).toMatchObject({ id: ids[2], kind: 'cli-probe', enabled: true, manifest: { id: ids[2] } });
    const unknown = await cli('releases', 'show', '2020-01-01-000000000000');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('unknown release 2020-01-01-000000000000');
    expect((await cli('releases', 'bogus')).code).toBe(2);
  });

  it('diffs manifests with stat deltas', async () => {
    const out = JSON.parse((await cli('releases', 'diff', ids[0]!, ids[2]!, '--json')).stdout);
    expect(out.changes).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'stats.length', a: 2, b: 10, delta: 8 }),
        expect.objectContaining({ field: 'artifacts.data.txt' }),
        expect.objectContaining({ field: 'content_hash' }),
      ]),
    );
  });

  it('verify catches a tampered artifact, and enable refuses it', async () => {
    const tampered = (await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec('tamper-me', { kind: 'cli-probe' }))).release;
    expect((await cli('releases', 'verify', tampered.id)).code).toBe(0);
    await appendFile(path.join(tampered.path, 'data.txt'), 'x');
    const verify = await cli('releases', 'verify', tampered.id, '--json');
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout)).toEqual({ id: tampered.id, ok: false, problems: ['data.txt: 10 bytes, manifest says 9'] });
    const enable = await cli('releases', 'enable', tampered.id);
    expect(enable.code).toBe(1);
    expect(enable.stderr).toContain('fails verification, not enabled');
    expect((await getEnabledRelease(pool, 'cli-probe'))?.id).toBe(ids[2]);
  });

  it('verify and enable check the files against the registered manifest, not the manifest.json beside them', async () => {
    const rewritten = (await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec('rewrite-me', { kind: 'rewrite-probe' }))).release;
    // New data and a manifest.json that agrees with it: consistent on disk, but not what was registered.
    const data = 'rewritten data';
    await writeFile(path.join(rewritten.path, 'data.txt'), data);
    const manifest = JSON.parse(await readFile(path.join(rewritten.path, 'manifest.json'), 'utf8'));
    manifest.artifacts = [{ path: 'data.txt', bytes: data.length, sha256: sha256(data) }];
    await writeFile(path.join(rewritten.path, 'manifest.json'), JSON.stringify(manifest));
    expect((await verifyReleaseDir(rewritten.path)).ok).toBe(true);

    const verify = await cli('releases', 'verify', rewritten.id, '--json');
    expect(verify.code).toBe(1);
    expect(JSON.parse(verify.stdout)).toEqual({
      id: rewritten.id,
      ok: false,
      problems: ['manifest.json is not the registered manifest (artifacts differ)', 'data.txt: 14 bytes, manifest says 10'],
    });
    const enable = await cli('releases', 'enable', rewritten.id);
    expect(enable.code).toBe(1);
    expect(enable.stderr).toContain('fails verification, not enabled');
    await expect(enableRelease(pool, rewritten.id, 'test')).rejects.toThrow(/manifest\.json is not the registered manifest/);
    expect(await getEnabledRelease(pool, 'rewrite-probe')).toBeNull();
  });

  it('prunes old releases but never the enabled one or its rollback target', async () => {
    // ids[2] was last enabled while ids[0] was in service, so ids[0] is its rollback target.
    const dry = JSON.parse((await cli('releases', 'prune', '--keep', '0', '--kind', 'cli-probe', '--dry-run', '--json')).stdout);
    expect(dry.removed).toHaveLength(2);
    expect((await listReleases(pool, 'cli-probe'))).toHaveLength(4);
    const result = JSON.parse((await cli('releases', 'prune', '--keep', '0', '--kind', 'cli-probe', '--json')).stdout);
    expect(result.kept.sort((x: { id: string }, y: { id: string }) => (x.id < y.id ? -1 : 1))).toEqual(
      [{ id: ids[2], kind: 'cli-probe', why: 'enabled' }, { id: ids[0], kind: 'cli-probe', why: 'rollback target' }].sort((x, y) => (x.id! < y.id! ? -1 : 1)),
    );
    expect(result.removed.map((r: { id: string }) => r.id)).toContain(ids[1]);
    const keptIds = result.kept.map((k: { id: string }) => k.id);
    for (const removed of result.removed) {
      expect(keptIds).not.toContain(removed.id);
      await expect(stat(removed.path)).rejects.toThrow();
    }
    expect((await listReleases(pool, 'cli-probe')).map((r) => r.id).sort()).toEqual([...keptIds].sort());
    expect((await cli('releases', 'prune')).code).toBe(2);
  });

  it('never deletes a release that became enabled after prune listed it', async () => {
    const late = (await publishRelease({ pool, releasesDir: env.config.releasesDir }, probeSpec('late', { kind: 'cli-probe' }))).release;
    await enableRelease(pool, late.id, 'test', { allowShrink: true });
    expect(await deleteRelease(pool, late)).toBe(false);
    expect(await deleteRelease(pool, { id: ids[2]!, kind: 'cli-probe' })).toBe(false); // now the rollback target
    expect((await listReleases(pool, 'cli-probe')).map((r) => r.id)).toEqual(expect.arrayContaining([late.id, ids[2]]));
  });
});
