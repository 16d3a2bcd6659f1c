/** The OSM areas a build selects by tags: readOsmFeatures (features.ts) asked for areas only. */
import { readOsmFeatures, type FeatureProgress, type OsmArea, type SkippedFeature, type TagSelect } from './features.ts';

export type { OsmArea } from './features.ts';
export type SkippedArea = SkippedFeature;
export type AreaProgress = FeatureProgress;

export interface OsmAreas {
  areas: OsmArea[];
  skipped: SkippedArea[];
}

export async function readOsmAreas(pbfPath: string, select: TagSelect, onProgress?: AreaProgress): Promise<OsmAreas> {
  const { areas, skipped } = await readOsmFeatures(pbfPath, { area: select }, onProgress);
  return { areas, skipped };
}
