import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import { ROADS_KIND, ROADS_SCHEMA_VERSION } from '../../schemas/roads-release.ts';
import { buildRoadGraph } from './graph-build.ts';
import { readRoadWays } from './read-ways.ts';
import { applyTurnRestrictions, readTurnRestrictions } from './restriction-build.ts';
import { wayProfile } from './way-tags.ts';
import { writeRoadFiles } from './write-road-files.ts';

export const ROADS_BUILDER_VERSION = 'roads-2';
/** Reported restrictions kept in the manifest (the counts cover them all). */
const REPORTED_RESTRICTIONS = 50;

export interface RoadsReleaseOptions {
  onProgress?: (fraction: number, message: string) => void;
}

/** An OSM extract (PBF or XML) → a roads release: the road graph with its turn restrictions. */
export async function prepareRoadsRelease(osmFile: string, options: RoadsReleaseOptions = {}): Promise<PublishSpec> {
  const inputs = [{ name: 'osm', source: osmFile, sha256: await sha256File(osmFile), licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' }];
  const onProgress = options.onProgress ?? (() => {});
  return {
    kind: ROADS_KIND,
    builderVersion: ROADS_BUILDER_VERSION,
    schemaVersion: ROADS_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      const started = Date.now();
      onProgress(0, 'reading routable ways');
      const ways = await readRoadWays(osmFile, wayProfile);
      onProgress(0.5, 'building the graph');
      const graph = buildRoadGraph(ways);
      onProgress(0.7, 'placing turn restrictions');
      const relations = await readTurnRestrictions(osmFile);
      const turns = applyTurnRestrictions(graph, relations.restrictions);
      onProgress(0.75, 'contracting the motor hierarchy');
      const files = await writeRoadFiles(stagingDir, turns.arrays);
      const seconds = (Date.now() - started) / 1000;
      const nodes = turns.arrays.firstEdge.length - 1;
      const edges = turns.arrays.edgeTarget.length;
      const bytes = files.graphBytes + files.chBytes;
      onProgress(1, `built ${nodes} nodes and ${edges} edges, ${files.hierarchy.shortcuts} shortcuts (${bytes} bytes) in ${seconds.toFixed(1)} s`);
      return {
        stats: {
          build_seconds: seconds,
          nodes,
          edges,
          bytes,
          hierarchy: { seconds: files.hierarchy.seconds, shortcuts: files.hierarchy.shortcuts, arcs: files.hierarchy.arcs, bytes: files.chBytes },
          restrictions: { ...turns.stats, malformed_relations: relations.malformed.length },
          restrictions_not_applied: turns.reports.slice(0, REPORTED_RESTRICTIONS),
          malformed_relations: relations.malformed.slice(0, REPORTED_RESTRICTIONS),
        },
      };
    },
  };
}
