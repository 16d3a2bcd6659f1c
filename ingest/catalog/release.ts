import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import { CATALOG_FILE, CATALOG_KIND, CATALOG_SCHEMA_VERSION, type CatalogFile } from '../../schemas/catalog-release.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { buildLayer, type LayerBuildStats } from './build-layer.ts';
import { loadDefinition } from './definition.ts';
import { ProvinceLocator } from './provinces.ts';

export const CATALOG_BUILDER_VERSION = 'catalog-1';

export interface CatalogReleaseOptions {
  workDir: string;
  onProgress?: (fraction: number, message: string) => void;
}

/** A catalog definition file → a PublishSpec (hash over the definition and every file it reads). */
export async function prepareCatalogRelease(definitionFile: string, options: CatalogReleaseOptions): Promise<PublishSpec> {
  const { file, definition } = await loadDefinition(definitionFile);
  const inputs: ManifestInput[] = [{ name: 'definition', source: file, sha256: await sha256File(file) }];
  if (definition.provinces) inputs.push({ name: 'provinces', source: definition.provinces, sha256: await sha256File(definition.provinces) });
  for (const layer of definition.layers) {
    for (const source of layer.source_layers) {
      if (!('path' in source.input)) continue;
      inputs.push({
        name: `${layer.id}/${source.id}`,
        source: source.input.path,
        sha256: await sha256File(source.input.path),
        licence: layer.licence,
        attribution: layer.attribution,
        source_updated_at: layer.source_updated_at || null,
      });
    }
  }
  const onProgress = options.onProgress ?? (() => {});
  return {
    kind: CATALOG_KIND,
    builderVersion: CATALOG_BUILDER_VERSION,
    schemaVersion: CATALOG_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      const workDir = path.join(options.workDir, 'catalog-build');
      await mkdir(workDir, { recursive: true });
      try {
        const provinces = definition.provinces ? await ProvinceLocator.load(definition.provinces) : null;
        const catalog: CatalogFile = { layers: [] };
        const layers: Record<string, LayerBuildStats> = {};
        const count = definition.layers.length;
        for (const [i, layer] of definition.layers.entries()) {
          const { entry, stats } = await buildLayer(layer, {
            stagingDir,
            workDir,
            provinces,
            updatedAt: new Date().toISOString().slice(0, 10),
            ingestionVersion: CATALOG_BUILDER_VERSION,
            onProgress: (f, m) => onProgress((i + f) / count, m),
          });
          catalog.layers.push(entry);
          layers[layer.id] = stats;
        }
        await writeFile(path.join(stagingDir, CATALOG_FILE), `${JSON.stringify(catalog, null, 2)}\n`);
        onProgress(1, 'built');
        return { stats: { layers } };
      } finally {
        await rm(workDir, { recursive: true, force: true });
      }
    },
  };
}
