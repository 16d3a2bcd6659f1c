import path from 'node:path';
import { buildContractionHierarchy, type ChBuildStats } from '../../engines/routing/contraction/build.ts';
import { writeChFile } from '../../engines/routing/contraction/file.ts';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { ROADS_CH_FILE, ROADS_GRAPH_FILE } from '../../schemas/roads-release.ts';

export interface RoadFiles {
  graphBytes: number;
  chBytes: number;
  hierarchy: ChBuildStats;
}

/** The files of a roads release in `dir`: the graph, then the contraction hierarchy built over it. */
export async function writeRoadFiles(dir: string, arrays: GraphArrays): Promise<RoadFiles> {
  const graphBytes = await writeGraphFile(path.join(dir, ROADS_GRAPH_FILE), arrays);
  const { hierarchy, stats } = buildContractionHierarchy(new RoadGraph(arrays));
  const chBytes = await writeChFile(path.join(dir, ROADS_CH_FILE), hierarchy);
  return { graphBytes, chBytes, hierarchy: stats };
}
