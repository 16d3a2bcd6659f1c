/**
 * ROADS_BUILD_MEMORY_MB: the peak memory a roads build may reach. Before it writes anything the
 * build estimates its peak from the graph's sizes and fails naming the setting when the estimate
 * is over it, rather than swapping or being killed halfway. The build has two high points
 * (write-road-files.ts): taking the hierarchy's input, while the graph's own arrays are still
 * held; and the end of the contraction, once they are released — the arcs with their shortcuts
 * (about one per edge on road graphs), the per-node lists, the witness search and the queue.
 * The per-node and per-edge bytes are the code's arrays, checked against the synthetic national
 * graph at 5, 10 and 25 million nodes (bench/routing/RESULTS.md).
 */
import { GRAPH_ARRAY_NAMES, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { InvalidInputError } from '../errors.ts';

export const ROADS_BUILD_MEMORY_SETTING = 'ROADS_BUILD_MEMORY_MB';

const MIB = 2 ** 20;
/** Node, V8's heap and the code: what a build process holds before its arrays. */
const RUNTIME_BYTES = 160 * MIB;
/** Taking the input beside the graph: the metric, the region's search, the input arcs. */
const INPUT_BYTES_PER_NODE = 24;
const INPUT_BYTES_PER_EDGE = 20;
/** The contraction (build.ts, contractor.ts, build-graph.ts, witness.ts), the graph released. */
const CONTRACTION_BYTES_PER_NODE = 110;
const CONTRACTION_BYTES_PER_EDGE = 90;

export interface RoadBuildEstimate {
  /** Estimated peak resident bytes of the build. */
  bytes: number;
  graphBytes: number;
  /** The contraction's own peak (the graph released). */
  hierarchyBytes: number;
  budgetBytes: number;
}

/** An InvalidInputError (named so): retrying cannot make the graph fit, so the job fails without retries. */
export class RoadsBuildMemoryError extends InvalidInputError {}

export function estimateRoadBuild(arrays: GraphArrays, budgetMb: number): RoadBuildEstimate {
  const graphBytes = GRAPH_ARRAY_NAMES.reduce((sum, name) => sum + arrays[name].byteLength, 0);
  return estimate(arrays.nodeLng.length, arrays.edgeTarget.length, graphBytes, budgetMb);
}

function estimate(nodes: number, edges: number, graphBytes: number, budgetMb: number): RoadBuildEstimate {
  const input = graphBytes + INPUT_BYTES_PER_NODE * nodes + INPUT_BYTES_PER_EDGE * edges;
  const hierarchyBytes = CONTRACTION_BYTES_PER_NODE * nodes + CONTRACTION_BYTES_PER_EDGE * edges;
  return { bytes: RUNTIME_BYTES + Math.max(input, hierarchyBytes), graphBytes, hierarchyBytes, budgetBytes: budgetMb * MIB };
}

const mib = (bytes: number) => `${Math.ceil(bytes / MIB).toLocaleString('en-CA')} MiB`;
const count = (n: number) => n.toLocaleString('en-CA');
const advice = `Raise ${ROADS_BUILD_MEMORY_SETTING} where the machine has the memory, or build a smaller extract`;

/** The estimate from the graph's counts, or a RoadsBuildMemoryError when it is over `budgetMb`: checked before anything is written. */
export function checkRoadBuildMemory(arrays: GraphArrays, budgetMb: number): RoadBuildEstimate {
  const e = estimateRoadBuild(arrays, budgetMb);
  if (e.bytes > e.budgetBytes) {
    throw new RoadsBuildMemoryError(
      `the road graph of ${count(arrays.nodeLng.length)} nodes and ${count(arrays.edgeTarget.length)} directed edges `
      + `needs an estimated ${mib(e.bytes)} at its peak to build (its arrays ${mib(e.graphBytes)}, the contraction ${mib(e.hierarchyBytes)}), `
      + `over ${ROADS_BUILD_MEMORY_SETTING}=${budgetMb}; nothing was written. ${advice}`,
    );
  }
  return e;
}

/**
 * The contraction's estimate again once its input is known — hierarchy nodes (the road nodes plus
 * the restriction regions' arrival nodes) and arcs — before it starts; the graph's arrays are
 * released by then. Dense restrictions (a city's: a third more hierarchy nodes than road nodes on
 * Vancouver) make it larger than the first estimate.
 */
export function checkContractionMemory(hierarchyNodes: number, arcs: number, budgetMb: number): RoadBuildEstimate {
  const e = estimate(hierarchyNodes, arcs, 0, budgetMb);
  if (e.bytes > e.budgetBytes) {
    throw new RoadsBuildMemoryError(
      `the contraction of ${count(hierarchyNodes)} hierarchy nodes (road nodes and the restriction regions' arrival nodes) and ${count(arcs)} arcs `
      + `needs an estimated ${mib(e.bytes)} at its peak, over ${ROADS_BUILD_MEMORY_SETTING}=${budgetMb}; the release was not built. ${advice}`,
    );
  }
  return e;
}

/**
 * V8's heap limit (--max-old-space-size) for a process running a build within `budgetMb`: the
 * graph and the hierarchy live in typed arrays outside the heap, so it needs a quarter at most.
 */
export function roadBuildHeapMb(budgetMb: number): number {
  return Math.max(256, Math.floor(budgetMb / 4));
}
