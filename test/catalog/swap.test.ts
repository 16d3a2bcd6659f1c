import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { ApiStack } from '../support/api-stack.ts';
import { repoPath } from '../support/paths.ts';

/** Two one-layer catalogs over the sample municipalities that differ in their row (so in their id). */
async function writeDefinitions(dir: string): Promise<[string, string]> {
  const demo = JSON.parse(await readFile(repoPath('samples/catalog/demo.catalog.json'), 'utf8'));
  const municipalities = demo.layers.find((l: { id: string }) => l.id === 'municipalities');
  municipalities.source_layers[0].input.path = repoPath('samples/catalog', municipalities.source_layers[0].input.path);
  const files: string[] = [];
  for (const edition of ['first', 'second']) {
    const file = path.join(dir, `${edition}.catalog.json`);
    await writeFile(file, JSON.stringify({ layers: [{ ...municipalities, freshness_policy: `${edition} edition` }] }));
    files.push(file);
  }
  return files as [string, string];
}

describe('catalog release swap while tiles are served', () => {
  let stack: ApiStack;
  let dir = '';
  let first: RegisteredRelease;
  let second: RegisteredRelease;

  beforeAll(async () => {
    stack = await ApiStack.create('catalog_swap');
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-catalog-swap-'));
    const [a, b] = await writeDefinitions(dir);
    first = await stack.build(a);
    second = await stack.build(b);
    await stack.start();
    await stack.enable(first);
  }, 120_000);

  afterAll(async () => {
    await stack?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('answers every request from one release or the other, never an error, across enabling one and the other again', async () => {
    const statuses = new Map<number, number>();
    const etags = new Set<string>();
    let stop = false;
    const client = async () => {
      while (!stop) {
        const answer = await stack.getBytes('/layers/municipalities/10/187/342');
        statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        etags.add(String(answer.headers.etag));
        await new Promise((r) => setImmediate(r));
      }
    };
    const clients = Array.from({ length: 8 }, client);
    await new Promise((r) => setTimeout(r, 200));
    await stack.enable(second);
    await new Promise((r) => setTimeout(r, 200));
    await stack.enable(first);
    await new Promise((r) => setTimeout(r, 200));
    stop = true;
    await Promise.all(clients);
    expect([...statuses.keys()]).toEqual([200]);
    expect(statuses.get(200)).toBeGreaterThan(100);
    expect(etags).toEqual(new Set([`"${first.id}"`, `"${second.id}"`]));
    expect((await stack.get('/layers/municipalities')).body.freshness_policy).toBe('first edition');
  });

  it('fails a build with a malformed input line by its line number, leaving nothing published', async () => {
    const definition = JSON.parse(await readFile(path.join(dir, 'first.catalog.json'), 'utf8'));
    const broken = path.join(dir, 'broken.ndjson');
    const lines = (await readFile(definition.layers[0].source_layers[0].input.path, 'utf8')).split('\n');
    lines.splice(2, 0, '{"type":"Feature","geometry":{"type":"Polygon","coordinates":[[1,2]]}');
    await writeFile(broken, lines.join('\n'));
    definition.layers[0].source_layers[0].input.path = broken;
    const file = path.join(dir, 'broken.catalog.json');
    await writeFile(file, JSON.stringify(definition));
    const before = await stack.pool.query('SELECT id FROM releases ORDER BY id');
    await expect(stack.build(file)).rejects.toThrow(/broken\.ndjson line 3: /);
    expect((await stack.pool.query('SELECT id FROM releases ORDER BY id')).rows).toEqual(before.rows);
    expect((await readdir(path.join(stack.env.config.releasesDir, 'catalog'))).sort()).toEqual([first.id, second.id].sort());
  });
});
