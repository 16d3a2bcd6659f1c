/**
 * A roads release of the synthetic graph, published and enabled as the roads job does it
 * (publishRelease → enableRelease), its files written by writeRoadFiles (graph + hierarchy).
 * The generator and its options are the release's context, so the same graph is the same release.
 * writeRoadFiles empties `arrays` as it goes: the caller reads the published roads.graph after.
 */
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import { writeRoadFiles } from '../../ingest/roads/write-road-files.ts';
import { loadConfig } from '../../lib/config.ts';
import type { Pool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease, type RegisteredRelease } from '../../releases/registry.ts';
import { ROADS_KIND, ROADS_SCHEMA_VERSION } from '../../schemas/roads-release.ts';

export async function publishSyntheticRoads(
  pool: Pool, releasesDir: string, arrays: GraphArrays, options: { nodes: number; seed: number },
): Promise<{ release: RegisteredRelease; seconds: number }> {
  const started = performance.now();
  const { release } = await publishRelease({ pool, releasesDir }, {
    kind: ROADS_KIND,
    builderVersion: 'bench-synthetic-roads-1',
    schemaVersion: ROADS_SCHEMA_VERSION,
    inputs: [],
    context: { generator: 'bench/routing/synthetic-graph.ts', ...options },
    async build(stagingDir) {
      const files = await writeRoadFiles(stagingDir, arrays, { memoryBudgetMb: loadConfig().roadsBuildMemoryMb });
      return {
        stats: {
          nodes: files.nodes, edges: files.edges, bytes: files.graphBytes + files.chBytes,
          hierarchy: { seconds: files.hierarchy.seconds, shortcuts: files.hierarchy.shortcuts, arcs: files.hierarchy.arcs, bytes: files.chBytes },
        },
      };
    },
  });
  await enableRelease(pool, release.id, 'bench/routing');
  return { release, seconds: (performance.now() - started) / 1000 };
}
