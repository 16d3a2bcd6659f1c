import { createWriteStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { once } from 'node:events';
import { FeatureStoreWriter } from '../../engines/catalog/feature-store-writer.ts';
import { readNdjsonFeatures } from '../../engines/tiles/ndjson.ts';
import { tileToArchive, type LayerSpec, type TilingReport } from '../../engines/tiles/tiler.ts';
import type { CatalogLayerEntry } from '../../schemas/catalog-release.ts';
import { ARCHIVES_DIR, FEATURES_DIR } from '../../schemas/catalog-release.ts';
import type { LayerDefinition, SourceLayerDefinition } from '../../schemas/catalog-definition.ts';
import { readInput } from './inputs.ts';
import { normalizeFeature } from './normalize.ts';
import type { ProvinceLocator } from './provinces.ts';

export interface LayerBuildContext {
  stagingDir: string;
  workDir: string;
  provinces: ProvinceLocator | null;
  /** Row fields the build sets: the build date and the builder version. */
  updatedAt: string;
  ingestionVersion: string;
  onProgress: (fraction: number, message: string) => void;
}

export interface LayerBuildStats {
  features: number;
  /** Per reason, how many input features were left out (never silently). */
  skipped: Record<string, number>;
  /** Examples of skipped feature ids per reason (at most five each). */
  skipped_examples: Record<string, string[]>;
  tiling: TilingReport | null;
}

function spec(source: SourceLayerDefinition): LayerSpec {
  const s = source.simplification;
  return {
    id: source.id,
    minZoom: source.minzoom,
    maxZoom: source.maxzoom,
    ...(s === undefined ? {} : { simplification: typeof s === 'number' ? s : Object.fromEntries(Object.entries(s).map(([z, t]) => [Number(z), t])) }),
  };
}

/** Reads a layer's inputs once: the feature store (identify/query) and one normalized NDJSON per source layer (tiles). */
async function collect(layer: LayerDefinition, ctx: LayerBuildContext, stats: LayerBuildStats): Promise<string[]> {
  const store = layer.identify || layer.query ? await FeatureStoreWriter.create(path.join(ctx.stagingDir, FEATURES_DIR), layer.id) : null;
  const skip = (id: string, reason: string) => {
    stats.skipped[reason] = (stats.skipped[reason] ?? 0) + 1;
    const examples = (stats.skipped_examples[reason] ??= []);
    if (examples.length < 5) examples.push(id);
  };
  const files: string[] = [];
  try {
    for (const [i, source] of layer.source_layers.entries()) {
      const file = path.join(ctx.workDir, `${layer.id}.${source.id}.ndjson`);
      files.push(file);
      const out = createWriteStream(file);
      const report = { skipped: skip, progress: (f: number, m: string) => ctx.onProgress((i + f) / layer.source_layers.length, `${layer.id}/${source.id}: ${m}`) };
      let n = 0;
      for await (const feature of readInput(source.input, report)) {
        n += 1;
        const normalized = normalizeFeature(feature, source, ctx.provinces);
        if ('skip' in normalized) {
          skip(feature.id ?? `#${n}`, normalized.skip);
          continue;
        }
        await store?.add(normalized.properties, normalized.geometry);
        stats.features += 1;
        const line = `${JSON.stringify({ type: 'Feature', properties: normalized.properties, geometry: normalized.geometry })}\n`;
        if (!out.write(line)) await once(out, 'drain');
      }
      out.end();
      await once(out, 'finish');
    }
    await store?.finish();
  } catch (err) {
    await store?.abort();
    throw err;
  }
  return files;
}

/** One catalog layer into the staging directory: its feature store and its archive. */
export async function buildLayer(layer: LayerDefinition, ctx: LayerBuildContext): Promise<{ entry: CatalogLayerEntry; stats: LayerBuildStats }> {
  await mkdir(path.join(ctx.stagingDir, FEATURES_DIR), { recursive: true });
  await mkdir(path.join(ctx.stagingDir, ARCHIVES_DIR), { recursive: true });
  const stats: LayerBuildStats = { features: 0, skipped: {}, skipped_examples: {}, tiling: null };
  const files = await collect(layer, ctx, stats);
  const sources = layer.source_layers;
  const built = stats.features > 0;
  if (built) {
    stats.tiling = await tileToArchive({
      layers: sources.map((source, i) => ({ spec: spec(source), features: readNdjsonFeatures(files[i]!) })),
      archivePath: path.join(ctx.stagingDir, ARCHIVES_DIR, `${layer.id}.pmtiles`),
      workDir: path.join(ctx.workDir, `${layer.id}.tiles`),
      metadata: { name: layer.id, attribution: layer.attribution, description: layer.display_name.en },
    });
  }
  const { identify, query, source_layers: _inputs, ...fields } = layer;
  const band = sources.length ? { minzoom: Math.min(...sources.map((s) => s.minzoom)), maxzoom: Math.max(...sources.map((s) => s.maxzoom)) } : null;
  const row = {
    ...fields,
    updated_at: ctx.updatedAt,
    ingestion_version: ctx.ingestionVersion,
    archives: band ? [{ id: layer.id, ...band }] : [],
    source_layer: sources[0]?.id ?? '',
    ...(sources.length > 1 ? { source_layers: sources.map((s) => ({ id: s.id, minzoom: s.minzoom, maxzoom: s.maxzoom })) } : {}),
  };
  return { entry: { row, identify, query, built_archives: built ? [layer.id] : [], features: stats.features }, stats };
}
