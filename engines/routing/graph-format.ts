/**
 * The road graph's release file `roads.graph`: what the build writes and the engine loads.
 *
 * Nodes are graph vertices (intersections and way ends) in micro-degrees. Directed edges are in
 * CSR order: the edges leaving node u are firstEdge[u] .. firstEdge[u+1]-1. Every per-edge array
 * has one entry per directed edge. A way segment usable in both directions gives two edges that
 * share one stored shape (in the OSM way's direction; the EDGE_FLAG.reversed edge reads it
 * backwards) and name each other in edgeReverse.
 */
import { MODES, type Mode } from './modes.ts';

export const GRAPH_FILE_NAME = 'roads.graph';
export const GRAPH_MAGIC = 'CMROADGR';
/**
 * 2: the turn restriction section (turnInEdge, turnOutEdge, turnModes).
 * 3: edgeGrade. A version-2 file still reads, its grades all 0 (GRAPH_SECTION_SINCE).
 */
export const GRAPH_FORMAT_VERSION = 3;
/** The oldest format readGraphFile accepts. */
export const OLDEST_GRAPH_FORMAT_VERSION = 2;

/** Largest |edgeGrade|, in percent: steeper readings are clamped (DEM noise on very short edges). */
export const MAX_GRADE_PERCENT = 50;

/** No edge (edgeReverse of a one-way segment). */
export const NO_EDGE = 0xffffffff;

/** Bits of edgeFlags. */
export const EDGE_FLAG = {
  toll: 1 << 0,
  ferry: 1 << 1,
  bridge: 1 << 2,
  tunnel: 1 << 3,
  link: 1 << 4,
  truckRoute: 1 << 5,
  hazmatForbidden: 1 << 6,
  /** The edge runs against its way's direction: its shape is read from the end. */
  reversed: 1 << 7,
} as const;

/** Bit of a mode in edgeAccess: 1 << index in MODES (auto 1, truck 2, bicycle 4, pedestrian 8). */
export const modeBit = (mode: Mode): number => 1 << MODES.indexOf(mode);

export const MICRO_DEGREES = 1e6;
export const toMicroDegrees = (deg: number): number => Math.round(deg * MICRO_DEGREES);
export const fromMicroDegrees = (micro: number): number => micro / MICRO_DEGREES;

/**
 * Truck limits stored in tenths (decimetres, 0.1 t) with 0 = no limit. Rounded down, so a stored
 * limit is never looser than the tag (a 3.85 m maxheight is kept as 3.8 m); a positive limit
 * below one tenth keeps the smallest step rather than turning into "no limit"; a limit beyond
 * the type's range is kept at its maximum (already beyond any vehicle).
 */
export function encodeTenths(value: number | null, max: number): number {
  if (value === null || !Number.isFinite(value) || value <= 0) return 0;
  return Math.min(max, Math.max(1, Math.floor(value * 10 + 1e-6)));
}
export const decodeTenths = (stored: number): number | null => (stored === 0 ? null : stored / 10);

/** Speeds are whole km/h in a byte. */
export const encodeSpeed = (kmh: number): number => (Number.isFinite(kmh) ? Math.min(255, Math.max(0, Math.round(kmh))) : 0);

/** Every array of a graph, by section name. */
export interface GraphArrays {
  nodeLng: Int32Array;
  nodeLat: Int32Array;
  /** nodes + 1 entries. */
  firstEdge: Uint32Array;
  edgeTarget: Uint32Array;
  /** Metres, haversine along the shape. */
  edgeLength: Float32Array;
  /** Index in ROAD_CLASSES. */
  edgeClass: Uint8Array;
  edgeFlags: Uint16Array;
  /** Modes allowed in this edge's direction (modeBit). */
  edgeAccess: Uint8Array;
  edgeSpeedAuto: Uint8Array;
  edgeSpeedTruck: Uint8Array;
  /** Crossing time of a ferry edge, 0 otherwise. */
  edgeFerrySeconds: Float32Array;
  /** Decimetres / 0.1 t (encodeTenths), 0 = no limit. */
  edgeMaxHeight: Uint8Array;
  edgeMaxWidth: Uint8Array;
  edgeMaxLength: Uint16Array;
  edgeMaxWeight: Uint16Array;
  edgeMaxAxleLoad: Uint16Array;
  /** Indexes into the string table; 0 is the empty string (no name / no ref). */
  edgeName: Uint32Array;
  edgeRef: Uint32Array;
  /** The segment's intermediate points: shapeCoords[2*start .. 2*(start+count)) as lng,lat pairs. */
  edgeShapeStart: Uint32Array;
  edgeShapeCount: Uint32Array;
  edgeReverse: Uint32Array;
  /**
   * Mean signed grade in whole percent along the edge's own direction (rise over length, + uphill),
   * within ±MAX_GRADE_PERCENT; 0 when unknown (no terrain release at build time, no height there, ferries).
   * The two directions of a segment hold opposite values.
   */
  edgeGrade: Int8Array;
  /** Interleaved lng,lat micro-degrees. */
  shapeCoords: Int32Array;
  /** UTF-8 strings back to back; string i is bytes stringOffsets[i] .. stringOffsets[i+1]. */
  stringBytes: Uint8Array;
  stringOffsets: Uint32Array;
  /**
   * Forbidden turns from the turn restriction relations: entering by turnInEdge[i] and leaving
   * by turnOutEdge[i] is forbidden to the modes of turnModes[i] (modeBit). Sorted by
   * (in, out), each pair once.
   */
  turnInEdge: Uint32Array;
  turnOutEdge: Uint32Array;
  turnModes: Uint8Array;
}

export type GraphArrayName = keyof GraphArrays;

type TypedArrayConstructor =
  | Int32ArrayConstructor | Uint32ArrayConstructor | Float32ArrayConstructor
  | Int8ArrayConstructor | Uint8ArrayConstructor | Uint16ArrayConstructor;

/** Section layout: the type of each array and what its length must be, given the counts. */
export const GRAPH_SECTIONS: Record<GraphArrayName, { type: TypedArrayConstructor; length: (c: GraphCounts) => number }> = {
  nodeLng: { type: Int32Array, length: (c) => c.nodes },
  nodeLat: { type: Int32Array, length: (c) => c.nodes },
  firstEdge: { type: Uint32Array, length: (c) => c.nodes + 1 },
  edgeTarget: { type: Uint32Array, length: (c) => c.edges },
  edgeLength: { type: Float32Array, length: (c) => c.edges },
  edgeClass: { type: Uint8Array, length: (c) => c.edges },
  edgeFlags: { type: Uint16Array, length: (c) => c.edges },
  edgeAccess: { type: Uint8Array, length: (c) => c.edges },
  edgeSpeedAuto: { type: Uint8Array, length: (c) => c.edges },
  edgeSpeedTruck: { type: Uint8Array, length: (c) => c.edges },
  edgeFerrySeconds: { type: Float32Array, length: (c) => c.edges },
  edgeMaxHeight: { type: Uint8Array, length: (c) => c.edges },
  edgeMaxWidth: { type: Uint8Array, length: (c) => c.edges },
  edgeMaxLength: { type: Uint16Array, length: (c) => c.edges },
  edgeMaxWeight: { type: Uint16Array, length: (c) => c.edges },
  edgeMaxAxleLoad: { type: Uint16Array, length: (c) => c.edges },
  edgeName: { type: Uint32Array, length: (c) => c.edges },
  edgeRef: { type: Uint32Array, length: (c) => c.edges },
  edgeShapeStart: { type: Uint32Array, length: (c) => c.edges },
  edgeShapeCount: { type: Uint32Array, length: (c) => c.edges },
  edgeReverse: { type: Uint32Array, length: (c) => c.edges },
  edgeGrade: { type: Int8Array, length: (c) => c.edges },
  shapeCoords: { type: Int32Array, length: (c) => 2 * c.shapePoints },
  stringBytes: { type: Uint8Array, length: (c) => c.stringBytes },
  stringOffsets: { type: Uint32Array, length: (c) => c.strings + 1 },
  turnInEdge: { type: Uint32Array, length: (c) => c.turns },
  turnOutEdge: { type: Uint32Array, length: (c) => c.turns },
  turnModes: { type: Uint8Array, length: (c) => c.turns },
};

export const GRAPH_ARRAY_NAMES = Object.keys(GRAPH_SECTIONS) as GraphArrayName[];

/** The arrays with one entry per directed edge (their names start with `edge`). */
export type EdgeArrayName = Extract<GraphArrayName, `edge${string}`>;
export const EDGE_ARRAY_NAMES = GRAPH_ARRAY_NAMES.filter((name): name is EdgeArrayName => name.startsWith('edge'));
/** The CSR offsets and every per-edge array: what a graph builder lays out. */
export type EdgeLayout = Pick<GraphArrays, EdgeArrayName | 'firstEdge'>;

/** Zeroed per-edge arrays for `edges` directed edges, edgeReverse all NO_EDGE: what a builder fills in. */
export function newEdgeArrays(edges: number): Pick<GraphArrays, EdgeArrayName> {
  const arrays = Object.fromEntries(EDGE_ARRAY_NAMES.map((name) => [name, new GRAPH_SECTIONS[name].type(edges)])) as Pick<GraphArrays, EdgeArrayName>;
  arrays.edgeReverse.fill(NO_EDGE);
  return arrays;
}

/** Sections added after OLDEST_GRAPH_FORMAT_VERSION, with the format that added them: older files read them as zeros. */
export const GRAPH_SECTION_SINCE: Partial<Record<GraphArrayName, number>> = { edgeGrade: 3 };

export interface GraphCounts {
  nodes: number;
  edges: number;
  shapePoints: number;
  strings: number;
  stringBytes: number;
  /** Forbidden (in edge, out edge) pairs. */
  turns: number;
}

export function countsOf(a: GraphArrays): GraphCounts {
  return {
    nodes: a.nodeLng.length,
    edges: a.edgeTarget.length,
    shapePoints: a.shapeCoords.length / 2,
    strings: a.stringOffsets.length - 1,
    stringBytes: a.stringBytes.length,
    turns: a.turnInEdge.length,
  };
}
