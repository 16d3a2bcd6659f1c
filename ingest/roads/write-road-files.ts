import path from 'node:path';
import { finishContraction, prepareContraction, type ChBuildStats, type ChBuildStep } from '../../engines/routing/contraction/build.ts';
import { writeChFile } from '../../engines/routing/contraction/file.ts';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { GRAPH_ARRAY_NAMES, GRAPH_SECTIONS, type GraphArrays } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { ROADS_CH_FILE, ROADS_GRAPH_FILE } from '../../schemas/roads-release.ts';
import { checkContractionMemory, checkRoadBuildMemory, type RoadBuildEstimate } from './build-memory.ts';
import { collectGarbage } from '../../engines/routing/contraction/collect-garbage.ts';

export interface RoadFiles {
  nodes: number;
  edges: number;
  graphBytes: number;
  chBytes: number;
  hierarchy: ChBuildStats;
  /** The peak the build was estimated to need (build-memory.ts): from the graph's counts, or the contraction's input when that is more. */
  estimate: RoadBuildEstimate;
}

export type RoadFilesStep = 'write roads.graph' | ChBuildStep | 'write roads.ch';

export interface RoadFilesOptions {
  /** ROADS_BUILD_MEMORY_MB: a graph estimated to need more fails before any file is written. */
  memoryBudgetMb: number;
  /** Called as each step ends (the benchmark's phases). */
  onStep?: (step: RoadFilesStep) => void;
}

/**
 * The files of a roads release in `dir`: the graph, then the contraction hierarchy built over it.
 * `arrays` is consumed: once roads.graph is written and the hierarchy has taken what it needs,
 * every section is emptied, so that the contraction's peak does not hold the graph as well
 * (callers that hold no other reference to the sections give their memory back; read roads.graph
 * for them afterwards).
 */
export async function writeRoadFiles(dir: string, arrays: GraphArrays, options: RoadFilesOptions): Promise<RoadFiles> {
  const estimate = checkRoadBuildMemory(arrays, options.memoryBudgetMb);
  const step = options.onStep ?? (() => {});
  const nodes = arrays.nodeLng.length;
  const edges = arrays.edgeTarget.length;
  const graphBytes = await writeGraphFile(path.join(dir, ROADS_GRAPH_FILE), arrays);
  step('write roads.graph');
  const prepared = prepareContraction(new RoadGraph(arrays), { onStep: step });
  const contraction = checkContractionMemory(prepared.nodes, prepared.input?.head.length ?? 0, options.memoryBudgetMb);
  emptySections(arrays);
  if (nodes >= 1_000_000) collectGarbage();
  const { hierarchy, stats } = finishContraction(prepared);
  const chBytes = await writeChFile(path.join(dir, ROADS_CH_FILE), hierarchy);
  step('write roads.ch');
  return { nodes, edges, graphBytes, chBytes, hierarchy: stats, estimate: estimate.bytes >= contraction.bytes ? estimate : { ...estimate, bytes: contraction.bytes } };
}

function emptySections(arrays: GraphArrays): void {
  const sections = arrays as unknown as Record<string, unknown>;
  for (const name of GRAPH_ARRAY_NAMES) sections[name] = new GRAPH_SECTIONS[name].type(0);
}
