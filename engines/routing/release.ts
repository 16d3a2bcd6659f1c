import { access } from 'node:fs/promises';
import path from 'node:path';
import type { KindOpener } from '../../releases/reader.ts';
import { ROADS_CH_FILE, ROADS_GRAPH_FILE, ROADS_KIND } from '../../schemas/roads-release.ts';
import { readChFile } from './contraction/file.ts';
import { ChFormatOutdatedError } from './contraction/format.ts';
import type { ContractionHierarchy } from './contraction/hierarchy.ts';
import { RoadGraph } from './road-graph.ts';
import { SnapIndex } from './snap.ts';

/**
 * An enabled roads release: the graph, its snapping index (built at open, about 50 ms for Vancouver)
 * and its hierarchy. The opener puts their arrays in SharedArrayBuffers: the routing worker threads
 * (engines/routing/workers/) view the same memory.
 */
export interface RoadNetwork {
  releaseId: string;
  graph: RoadGraph;
  snap: SnapIndex;
  /** The contraction hierarchy of motor routing; null for a release built before it or with an older format (A* only). */
  hierarchy: ContractionHierarchy | null;
  /** Aborted when the release store closes the release (the worker threads then drop their views of it). */
  closed?: AbortSignal;
}

const exists = (file: string) => access(file).then(() => true, () => false);

/** An older hierarchy format (node-based) is not used: its release answers with A* until rebuilt. */
function withoutOutdated(err: unknown): null {
  if (err instanceof ChFormatOutdatedError) return null;
  throw err;
}

const closers = new WeakMap<RoadNetwork, AbortController>();

/** The release-kind opener the API's release store uses for kind 'roads'. */
export const roadsOpener: KindOpener<RoadNetwork> = {
  kind: ROADS_KIND,
  async open(dir, manifest) {
    const graph = await RoadGraph.open(path.join(dir, ROADS_GRAPH_FILE), { shared: true });
    const chFile = path.join(dir, ROADS_CH_FILE);
    const hierarchy = (await exists(chFile)) ? await readChFile(chFile, { shared: true }).catch(withoutOutdated) : null;
    hierarchy?.assertFits(graph);
    const closer = new AbortController();
    const network: RoadNetwork = { releaseId: manifest.id, graph, snap: SnapIndex.build(graph), hierarchy, closed: closer.signal };
    closers.set(network, closer);
    return network;
  },
  close: async (network) => {
    closers.get(network)?.abort();
  },
};
