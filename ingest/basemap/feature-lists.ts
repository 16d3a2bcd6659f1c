import type { BasemapFeature, BasemapLayer } from './feature.ts';
import { SPOOL_GROUPS, type BasemapFeatureStore, type SpoolGroup } from './feature-store.ts';

/** The layers' features in arrays, read back in the same order as from a FeatureSpool. */
export class FeatureLists implements BasemapFeatureStore {
  private readonly lists = new Map<string, BasemapFeature[]>();
  count = 0;

  add(group: SpoolGroup, f: BasemapFeature): void {
    const k = `${f.layer}-${group}`;
    let list = this.lists.get(k);
    if (!list) this.lists.set(k, (list = []));
    list.push(f);
    this.count += 1;
  }

  *read(layer: BasemapLayer): Generator<BasemapFeature> {
    for (const group of SPOOL_GROUPS) yield* this.lists.get(`${layer}-${group}`) ?? [];
  }

  clear(): void {
    this.lists.clear();
    this.count = 0;
  }
}
