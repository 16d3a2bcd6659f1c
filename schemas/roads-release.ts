/** Layout of a roads release directory (written by ingest/roads, read by engines/routing). */
export const ROADS_KIND = 'roads';
export const ROADS_SCHEMA_VERSION = 1;
/** The road graph: nodes, directed edges with their attributes and shapes, forbidden turns (engines/routing/graph-format.ts). */
export const ROADS_GRAPH_FILE = 'roads.graph';
