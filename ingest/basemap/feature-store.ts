import type { BasemapFeature, BasemapLayer } from './feature.ts';

/** The kinds of OSM object a layer's features are kept apart by, in the order the in-memory read gives them. */
export const SPOOL_GROUPS = ['way', 'relation', 'line', 'point'] as const;
export type SpoolGroup = (typeof SPOOL_GROUPS)[number];

/** The layers' features on their way to the tiler, kept in memory (FeatureLists) or on disk (FeatureSpool). */
export interface BasemapFeatureStore {
  add(group: SpoolGroup, f: BasemapFeature): void;
  /** The layer's features, group by group in SPOOL_GROUPS order, each group in the order added. */
  read(layer: BasemapLayer): Iterable<BasemapFeature>;
  /** Drops every feature added. */
  clear(): void;
  readonly count: number;
}
