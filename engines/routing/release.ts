import path from 'node:path';
import type { KindOpener } from '../../releases/reader.ts';
import { ROADS_GRAPH_FILE, ROADS_KIND } from '../../schemas/roads-release.ts';
import { RoadGraph } from './road-graph.ts';
import { SnapIndex } from './snap.ts';

/** An enabled roads release: the graph and its snapping index (built at open, about 50 ms for Vancouver). */
export interface RoadNetwork {
  releaseId: string;
  graph: RoadGraph;
  snap: SnapIndex;
}

/** The release-kind opener the API's release store uses for kind 'roads'. */
export const roadsOpener: KindOpener<RoadNetwork> = {
  kind: ROADS_KIND,
  async open(dir, manifest) {
    const graph = await RoadGraph.open(path.join(dir, ROADS_GRAPH_FILE));
    return { releaseId: manifest.id, graph, snap: SnapIndex.build(graph) };
  },
  close: async () => {},
};
