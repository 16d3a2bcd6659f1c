/** Layout of a roads release directory (written by ingest/roads, read by engines/routing). */
export const ROADS_KIND = 'roads';
/**
 * 2 adds roads.ch; 3 makes it edge-based (turn restrictions inside the hierarchy). The API still
 * serves a version 1 or 2 release, with A* only.
 */
export const ROADS_SCHEMA_VERSION = 3;
/** The road graph: nodes, directed edges with their attributes and shapes, forbidden turns (engines/routing/graph-format.ts). */
export const ROADS_GRAPH_FILE = 'roads.graph';
/** The contraction hierarchy of motor routing over the graph (engines/routing/contraction/format.ts). */
export const ROADS_CH_FILE = 'roads.ch';
