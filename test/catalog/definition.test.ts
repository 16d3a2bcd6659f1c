import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDefinition } from '../../ingest/catalog/definition.ts';
import { repoPath } from '../support/paths.ts';

describe('catalog definition files (ingest/catalog/definition.ts)', () => {
  let dir = '';
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- edited field by field below
  let demo: any;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-catalog-definition-'));
    demo = JSON.parse(await readFile(repoPath('samples/catalog/demo.catalog.json'), 'utf8'));
    // The copies live elsewhere: point their inputs back at the samples.
    demo.provinces = repoPath('samples/catalog', demo.provinces);
    for (const layer of demo.layers) for (const s of layer.source_layers) if (s.input.path) s.input.path = repoPath('samples/catalog', s.input.path);
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  async function refusal(edit: (d: typeof demo) => void): Promise<string> {
    const copy = structuredClone(demo);
    edit(copy);
    const file = path.join(dir, `definition-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, JSON.stringify(copy));
    return loadDefinition(file).then(() => 'accepted', (err: Error) => `${err.name}: ${err.message.replace(file, 'FILE')}`);
  }

  it('accepts the demo definition and resolves its paths next to it', async () => {
    const { definition } = await loadDefinition(repoPath('samples/catalog/demo.catalog.json'));
    expect(definition.provinces).toBe(repoPath('samples/catalog/provinces.geojson'));
    expect(definition.layers.find((l) => l.id === 'municipalities')!.source_layers[0]!.input).toEqual({ kind: 'ndjson', path: repoPath('samples/catalog/municipalities.ndjson') });
  });

  it('refuses what a build could not honour, naming the layer and the field', async () => {
    expect(await refusal((d) => { d.layers[0].addon = 'energy'; })).toBe(
      'InvalidInputError: catalog definition FILE, layer municipalities: addon is "energy" but the access table gates municipalities with "core"');
    expect(await refusal((d) => { d.layers[4].addon = 'core'; })).toMatch(/layer survey\.nts: addon is "core" but the access table gates survey\.nts with "legal-land"/);
    expect(await refusal((d) => { d.layers[1].id = 'water'; })).toMatch(/layer water: water is a retired layer/);
    expect(await refusal((d) => { d.layers.push(d.layers[0]); })).toMatch(/layer municipalities: the id appears twice/);
    expect(await refusal((d) => { d.layers[0].source_layers[0].minzoom = 15; d.layers[0].source_layers[0].maxzoom = 3; })).toMatch(/minzoom 15 is above maxzoom 3/);
    expect(await refusal((d) => { d.layers[0].source_layers = []; })).toMatch(/identify-capable or queryable layer needs at least one source layer/);
    expect(await refusal((d) => { d.layers[0].source_layers[0].input.path = '/nonexistent/file.ndjson'; })).toMatch(/\/nonexistent\/file\.ndjson is not a readable file/);
    expect(await refusal((d) => { delete d.layers[2].licence; })).toMatch(/\/layers\/2\/licence: Expected required property/);
    expect(await refusal((d) => { d.layers[0].source_layers[0].input = { kind: 'shapefile', path: 'x' }; })).toMatch(/\/layers\/0\/source_layers\/0\/input/);
  });

  it('refuses a file that is not JSON', async () => {
    const file = path.join(dir, 'broken.json');
    await writeFile(file, '{"layers": [');
    await expect(loadDefinition(file)).rejects.toThrow(/is not valid JSON/);
  });
});
