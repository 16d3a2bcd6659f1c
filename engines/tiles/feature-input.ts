import { writeRecord } from './feature-record.ts';
import { checkLayerSpec, simplifies, type FieldType, type LayerSpec, type TilerFeature } from './layer-spec.ts';
import type { Bounds } from './pmtiles/header.ts';
import { RecordWriter } from './record-file.ts';
import { projectFeature, unprojectX, unprojectY } from './tile-feature.ts';
import type { Partition } from './tile-tree.ts';

/**
 * The tiler's first pass: every layer's features, streamed once in order, projected and ranked
 * (tile-feature.ts) and appended to the root partition file, so no more than one feature is held
 * at a time. It also learns what the archive's metadata needs: each layer's fields and the
 * features' bounds.
 */

export interface LayerSource {
  spec: LayerSpec;
  features: AsyncIterable<TilerFeature> | Iterable<TilerFeature>;
}

export interface SpilledInput {
  root: Partition;
  fields: Record<string, FieldType>[];
  /** Input features read per layer (those without geometry included). */
  features: number[];
  /** Of the features written; null when there were none. */
  bounds: Bounds | null;
}

export async function spillLayers(layers: readonly LayerSource[], rootPath: string, onFeatures?: (read: number) => void): Promise<SpilledInput> {
  for (const { spec } of layers) checkLayerSpec(spec);
  const ids = layers.map((l) => l.spec.id);
  const repeated = ids.find((id, i) => ids.indexOf(id) !== i);
  if (repeated !== undefined) throw new Error(`two source layers are called ${repeated}: one archive needs distinct names`);
  const file = new RecordWriter(rootPath);
  const fields = layers.map(() => ({}) as Record<string, FieldType>);
  const counts = layers.map(() => 0);
  let [minX, minY, maxX, maxY] = [Infinity, Infinity, -Infinity, -Infinity];
  let seq = 0;
  try {
    for (const [layer, { spec, features }] of layers.entries()) {
      const context = { layer, spec, rank: simplifies(spec), fields: fields[layer]! };
      for await (const input of features) {
        for (const f of projectFeature(input, seq, context)) {
          writeRecord(f, file);
          minX = Math.min(minX, f.minX);
          minY = Math.min(minY, f.minY);
          maxX = Math.max(maxX, f.maxX);
          maxY = Math.max(maxY, f.maxY);
        }
        seq += 1;
        counts[layer]! += 1;
        if (onFeatures && seq % 100_000 === 0) onFeatures(seq);
      }
    }
  } finally {
    file.close();
  }
  const bounds = file.count === 0 ? null : { minLon: unprojectX(minX), minLat: unprojectY(maxY), maxLon: unprojectX(maxX), maxLat: unprojectY(minY) };
  return { root: { path: rootPath, count: file.count, bytes: file.bytes }, fields, features: counts, bounds };
}
