/**
 * The travel modes and road classes the road graph stores (the build's WayProfile in
 * ingest/roads/way-profile.ts re-exports them). Stored codes are indexes in these lists, so
 * entries are only ever appended.
 */

export const MODES = ['auto', 'truck', 'bicycle', 'pedestrian'] as const;
export type Mode = (typeof MODES)[number];

/** Road classes from highway=* (and ferries), most important first; the stored code is the index. */
export const ROAD_CLASSES = [
  'motorway', 'trunk', 'primary', 'secondary', 'tertiary', 'unclassified', 'residential', 'service',
  'living_street', 'track', 'path', 'cycleway', 'footway', 'pedestrian', 'steps', 'ferry',
] as const;
export type RoadClass = (typeof ROAD_CLASSES)[number];
