/**
 * A roads release as the routing worker threads receive it: the graph's, hierarchy's and snap
 * index's typed arrays over SharedArrayBuffers. Posting them to a worker shares the memory (no
 * copy); the worker wraps them in its own RoadGraph, ContractionHierarchy and SnapIndex.
 */
import type { ChArrays } from '../contraction/format.ts';
import { ContractionHierarchy } from '../contraction/hierarchy.ts';
import type { GraphArrays } from '../graph-format.ts';
import type { RoadNetwork } from '../release.ts';
import { RoadGraph } from '../road-graph.ts';
import { SnapIndex, type SnapIndexParts } from '../snap.ts';

export interface NetworkParts {
  releaseId: string;
  graph: GraphArrays;
  hierarchy: ChArrays | null;
  snap: SnapIndexParts;
}

type Typed = { buffer: ArrayBufferLike; byteOffset: number; byteLength: number; constructor: unknown };

/** The array itself when its memory is shared already, else a copy in a SharedArrayBuffer. */
function sharedCopy<A extends Typed>(array: A): A {
  if (array.buffer instanceof SharedArrayBuffer) return array;
  const Type = array.constructor as new (buffer: ArrayBufferLike) => A;
  const buffer = new SharedArrayBuffer(array.byteLength);
  new Uint8Array(buffer).set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return new Type(buffer);
}

function sharedRecord<R extends object>(record: R): R {
  return Object.fromEntries(Object.entries(record).map(([name, array]) => [name, sharedCopy(array as Typed)])) as R;
}

/**
 * The parts of a network. The roads opener already reads into shared memory; a network built
 * otherwise (tests, benchmarks) gets its arrays copied once into shared memory.
 */
export function networkParts(network: RoadNetwork): NetworkParts {
  return {
    releaseId: network.releaseId,
    graph: sharedRecord(network.graph.arrays),
    hierarchy: network.hierarchy && sharedRecord(network.hierarchy.arrays),
    // SnapIndex.build always allocates in shared memory; its entries name edges, the same in the copy.
    snap: network.snap.parts(),
  };
}

/** A worker's network over the posted parts (its own objects and caches, the same memory). */
export function networkFromParts(parts: NetworkParts): RoadNetwork {
  const graph = new RoadGraph(parts.graph);
  return {
    releaseId: parts.releaseId,
    graph,
    snap: SnapIndex.fromParts(graph, parts.snap),
    hierarchy: parts.hierarchy && new ContractionHierarchy(parts.hierarchy),
  };
}
