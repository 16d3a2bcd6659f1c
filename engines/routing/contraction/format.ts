/**
 * The contraction hierarchy of a road graph, file `roads.ch`, over the motor lower-bound metric
 * (metric.ts). Its nodes (region.ts) are the road nodes, except that around turn restrictions a
 * road node gives way to one node per edge into it, so the restrictions are inside the hierarchy.
 * Every arc of the contracted graph (a road edge or a shortcut) joins a lower-ranked node to a
 * higher-ranked one and is stored once, at its lower end:
 * - up arcs (CSR upFirst/upHead/upWeight): node → higher head, in travel direction (forward search);
 * - down arcs (CSR downFirst/downHead/downWeight): higher head → node, stored at node (backward search).
 * Arc ids number the up arcs 0..upArcs-1, then the down arcs upArcs..upArcs+downArcs-1. Unpacking:
 * arcB[id] === NO_ARC means the road graph's directed edge arcA[id]; otherwise the arc is a
 * shortcut of arc arcA[id] followed by arc arcB[id] (its middle node is where they meet).
 * Format 1 had no region (restrictions were checked after the query); it is no longer read.
 */
export { ROADS_CH_FILE } from '../../../schemas/roads-release.ts';
import type { RegionArrays } from './region.ts';

export const CH_MAGIC = 'CMROADCH';
export const CH_FORMAT_VERSION = 2;

/** arcB of an original edge. */
export const NO_ARC = 0xffffffff;

export interface ChArrays extends RegionArrays {
  /** Contraction order of each node: 0 first. */
  rank: Uint32Array;
  /** Lower-bound seconds of each original directed edge; Infinity when outside the motor metric. */
  edgeWeight: Float64Array;
  upFirst: Uint32Array;
  upHead: Uint32Array;
  upWeight: Float64Array;
  downFirst: Uint32Array;
  downHead: Uint32Array;
  downWeight: Float64Array;
  arcA: Uint32Array;
  arcB: Uint32Array;
}

export type ChArrayName = keyof ChArrays;

export interface ChCounts {
  /** Road nodes plus region edges. */
  nodes: number;
  /** Directed edges of the RoadGraph the hierarchy was built from. */
  edges: number;
  regionNodes: number;
  regionEdges: number;
  upArcs: number;
  downArcs: number;
}

type ChArrayType = Uint32ArrayConstructor | Float64ArrayConstructor;

export const CH_SECTIONS: Record<ChArrayName, { type: ChArrayType; length: (c: ChCounts) => number }> = {
  rank: { type: Uint32Array, length: (c) => c.nodes },
  edgeWeight: { type: Float64Array, length: (c) => c.edges },
  upFirst: { type: Uint32Array, length: (c) => c.nodes + 1 },
  upHead: { type: Uint32Array, length: (c) => c.upArcs },
  upWeight: { type: Float64Array, length: (c) => c.upArcs },
  downFirst: { type: Uint32Array, length: (c) => c.nodes + 1 },
  downHead: { type: Uint32Array, length: (c) => c.downArcs },
  downWeight: { type: Float64Array, length: (c) => c.downArcs },
  arcA: { type: Uint32Array, length: (c) => c.upArcs + c.downArcs },
  arcB: { type: Uint32Array, length: (c) => c.upArcs + c.downArcs },
  regionNodes: { type: Uint32Array, length: (c) => c.regionNodes },
  regionInFirst: { type: Uint32Array, length: (c) => c.regionNodes + 1 },
  regionInEdge: { type: Uint32Array, length: (c) => c.regionEdges },
};

export const CH_ARRAY_NAMES = Object.keys(CH_SECTIONS) as ChArrayName[];

export function chCountsOf(a: ChArrays): ChCounts {
  return {
    nodes: a.rank.length, edges: a.edgeWeight.length, upArcs: a.upHead.length, downArcs: a.downHead.length,
    regionNodes: a.regionNodes.length, regionEdges: a.regionInEdge.length,
  };
}

export class ChFileError extends Error {
  override readonly name = 'ChFileError';
}

/** A roads.ch of an older format: the release is still served, without a hierarchy (A* only). */
export class ChFormatOutdatedError extends ChFileError {
  constructor(message: string, readonly version: number) {
    super(message);
  }
}

/**
 * Throws when the arrays do not form a hierarchy: section types and lengths, CSR bounds, ranks a
 * permutation, every arc leading to a higher rank (so searches and potentials terminate), and
 * unpacking references in range.
 */
export function checkChArrays(a: ChArrays, c: ChCounts = chCountsOf(a)): void {
  for (const name of CH_ARRAY_NAMES) {
    const { type, length } = CH_SECTIONS[name];
    const arr = a[name];
    if (!(arr instanceof type)) throw new ChFileError(`hierarchy section ${name} must be a ${type.name}`);
    if (arr.length !== length(c)) throw new ChFileError(`hierarchy section ${name} has ${arr.length} entries, expected ${length(c)}`);
  }
  const seen = new Uint8Array(c.nodes);
  for (let v = 0; v < c.nodes; v++) {
    const r = a.rank[v]!;
    if (r >= c.nodes || seen[r]) throw new ChFileError(`hierarchy ranks are not a permutation (node ${v})`);
    seen[r] = 1;
  }
  checkRegion(a, c);
  checkUpward(a.upFirst, a.upHead, a.rank, c.upArcs, 'up');
  checkUpward(a.downFirst, a.downHead, a.rank, c.downArcs, 'down');
  const arcs = c.upArcs + c.downArcs;
  for (let id = 0; id < arcs; id++) {
    const x = a.arcA[id]!;
    const y = a.arcB[id]!;
    if (y === NO_ARC ? x >= c.edges : x >= arcs || y >= arcs) throw new ChFileError(`hierarchy arc ${id} unpacks beyond range`);
  }
}

function checkRegion(a: ChArrays, c: ChCounts): void {
  const roadNodes = c.nodes - c.regionEdges;
  if (roadNodes < 0) throw new ChFileError('hierarchy region has more edges than the hierarchy has nodes');
  for (let i = 0; i < c.regionNodes; i++) {
    if (a.regionNodes[i]! >= roadNodes || (i > 0 && a.regionNodes[i]! <= a.regionNodes[i - 1]!)) throw new ChFileError(`hierarchy region node ${i} out of order or range`);
    if (a.regionInFirst[i + 1]! < a.regionInFirst[i]!) throw new ChFileError(`hierarchy regionInFirst decreases at ${i}`);
  }
  if (a.regionInFirst[0] !== 0 || a.regionInFirst[c.regionNodes] !== c.regionEdges) throw new ChFileError(`hierarchy region edges do not span 0..${c.regionEdges}`);
  for (const e of a.regionInEdge) if (e >= c.edges) throw new ChFileError('hierarchy region edge beyond the graph');
}

function checkUpward(first: Uint32Array, head: Uint32Array, rank: Uint32Array, arcs: number, side: string): void {
  const n = rank.length;
  if (first[0] !== 0 || first[n] !== arcs) throw new ChFileError(`hierarchy ${side} arcs do not span 0..${arcs}`);
  for (let v = 0; v < n; v++) {
    const end = first[v + 1]!;
    if (end < first[v]!) throw new ChFileError(`hierarchy ${side}First decreases at node ${v}`);
    for (let i = first[v]!; i < end; i++) {
      const h = head[i]!;
      if (h >= n || rank[h]! <= rank[v]!) throw new ChFileError(`hierarchy ${side} arc ${i} of node ${v} does not lead upward`);
    }
  }
}
