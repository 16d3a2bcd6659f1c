/**
 * OSM water → the `water` layer: lake, reservoir, river-area and bay polygons (kind lake or
 * water, bay...), river and stream lines, and label points for named water (sea and ocean
 * place nodes, bays and straits tagged as nodes).
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';
import type { Classified } from './feature.ts';

const WATER_AREA_KINDS: Readonly<Record<string, string>> = { lake: 'lake', reservoir: 'lake', pond: 'lake', river: 'river', canal: 'water', lagoon: 'lake', oxbow: 'lake' };

/** A water polygon's kind, or null when the area is not water. */
export function classifyWaterArea(tags: OsmTags): string | null {
  if (tags.natural === 'water') return WATER_AREA_KINDS[tags.water ?? ''] ?? 'water';
  if (tags.waterway === 'riverbank' || tags.waterway === 'dock') return 'water';
  if (tags.landuse === 'reservoir' || tags.landuse === 'basin') return 'lake';
  if (tags.natural === 'bay' || tags.natural === 'strait' || tags.natural === 'fjord') return tags.natural;
  return null;
}

export function classifyWaterLine(tags: OsmTags): Classified | null {
  const waterway = tags.waterway;
  if (waterway === 'river') return { kind: 'river', minZoom: 9, sortRank: 20 };
  if (waterway === 'canal') return { kind: 'river', kindDetail: 'canal', minZoom: 11, sortRank: 19 };
  if (waterway === 'stream') return { kind: 'stream', minZoom: 13, sortRank: 18 };
  return null;
}

const PLACE_WATER: Readonly<Record<string, number>> = { ocean: 0, sea: 3, bay: 8, strait: 8, fjord: 9 };

/** Named water tagged as a node: a label point. */
export function classifyWaterPoint(tags: OsmTags): Classified | null {
  if (!tags.name) return null;
  const kind = tags.place === 'ocean' || tags.place === 'sea' ? tags.place : tags.natural;
  if (kind === undefined) return null;
  const minZoom = PLACE_WATER[kind];
  return minZoom === undefined ? null : { kind, minZoom, sortRank: 10 };
}
