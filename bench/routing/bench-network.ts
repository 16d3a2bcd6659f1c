/**
 * The two graphs of the routing benchmarks, loaded in this process with their contraction
 * hierarchy: Vancouver's roads release as the roads job builds it (written to a temp dir and
 * read back as the API reads it), and the synthetic national graph contracted in memory.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { buildContractionHierarchy } from '../../engines/routing/contraction/build.ts';
import { readChFile } from '../../engines/routing/contraction/file.ts';
import type { ContractionHierarchy } from '../../engines/routing/contraction/hierarchy.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_CH_FILE, ROADS_GRAPH_FILE } from '../../schemas/roads-release.ts';
import { sharedData } from '../../test/support/paths.ts';
import { syntheticRoadGraph } from '../../test/support/routing/synthetic-graph.ts';

/** Under ../shared/data. */
export const VANCOUVER_PBF = 'osm/pelias-vancouver_canada.osm.pbf';

export interface BenchNetwork {
  label: string;
  graph: RoadGraph;
  hierarchy: ContractionHierarchy;
  /** Seconds to build (and for Vancouver read back) graph and hierarchy. */
  seconds: number;
}

export async function vancouverNetwork(): Promise<BenchNetwork> {
  const started = performance.now();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-routing-vancouver-'));
  try {
    await (await prepareRoadsRelease(sharedData(VANCOUVER_PBF))).build(dir);
    const graph = await RoadGraph.open(path.join(dir, ROADS_GRAPH_FILE));
    const hierarchy = await readChFile(path.join(dir, ROADS_CH_FILE));
    return { label: 'Vancouver', graph, hierarchy, seconds: (performance.now() - started) / 1000 };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function syntheticNetwork(nodes: number, seed: number): BenchNetwork {
  const started = performance.now();
  const graph = new RoadGraph(syntheticRoadGraph({ nodes, seed }));
  const { hierarchy } = buildContractionHierarchy(graph);
  return { label: `synthetic ${nodes.toLocaleString('en-CA')}`, graph, hierarchy, seconds: (performance.now() - started) / 1000 };
}
