import { sha256File } from '../../releases/checksum.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { ROADS_KIND, ROADS_SCHEMA_VERSION } from '../../schemas/roads-release.ts';
import { computeEdgeGrades } from './edge-grades.ts';
import { buildRoadGraph } from './graph-build.ts';
import { readRoadWays } from './read-ways.ts';
import { applyTurnRestrictions, readTurnRestrictions } from './restriction-build.ts';
import { terrainInput, type RoadsDem } from './terrain-dem.ts';
import { wayProfile } from './way-tags.ts';
import { Settings } from '../../schemas/config.ts';
import { writeRoadFiles, type RoadFilesStep } from './write-road-files.ts';

/** roads-3: edge grades (graph format 3); roads-4: edge-based hierarchy (roads.ch format 2). */
export const ROADS_BUILDER_VERSION = 'roads-4';
/** Reported restrictions kept in the manifest (the counts cover them all). */
const REPORTED_RESTRICTIONS = 50;

export interface RoadsReleaseOptions {
  onProgress?: (fraction: number, message: string) => void;
  /** Heights to grade the edges with (the enabled terrain release); without it every grade is 0. */
  dem?: RoadsDem | null;
  /** ROADS_BUILD_MEMORY_MB (build-memory.ts); default the setting's default. */
  memoryBudgetMb?: number;
  /** The steps of writing the files (write-road-files.ts), as each ends. */
  onStep?: (step: RoadFilesStep) => void;
}

/** An OSM extract (PBF or XML) → a roads release: the road graph with its turn restrictions and grades. */
export async function prepareRoadsRelease(osmFile: string, options: RoadsReleaseOptions = {}): Promise<PublishSpec> {
  const dem = options.dem ?? null;
  const inputs: ManifestInput[] = [{ name: 'osm', source: osmFile, sha256: await sha256File(osmFile), licence: 'ODbL-1.0', attribution: '© OpenStreetMap contributors' }];
  if (dem) inputs.push(terrainInput(dem));
  const onProgress = options.onProgress ?? (() => {});
  return {
    kind: ROADS_KIND,
    builderVersion: ROADS_BUILDER_VERSION,
    schemaVersion: ROADS_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      const started = Date.now();
      // The OSM read and the intermediate graph are garbage once this returns: the contraction
      // holds only the graph's arrays, and releases those too (writeRoadFiles).
      const graph = await graphArrays(osmFile, dem, onProgress);
      onProgress(0.75, 'contracting the motor hierarchy');
      const files = await writeRoadFiles(stagingDir, graph.arrays, {
        memoryBudgetMb: options.memoryBudgetMb ?? Settings.ROADS_BUILD_MEMORY_MB.schema.default,
        ...(options.onStep ? { onStep: options.onStep } : {}),
      });
      const seconds = (Date.now() - started) / 1000;
      const bytes = files.graphBytes + files.chBytes;
      onProgress(1, `built ${files.nodes} nodes and ${files.edges} edges, ${files.hierarchy.shortcuts} shortcuts (${bytes} bytes) in ${seconds.toFixed(1)} s`);
      return {
        stats: {
          build_seconds: seconds,
          nodes: files.nodes,
          edges: files.edges,
          bytes,
          estimated_peak_bytes: files.estimate.bytes,
          hierarchy: {
            seconds: files.hierarchy.seconds, shortcuts: files.hierarchy.shortcuts, arcs: files.hierarchy.arcs, bytes: files.chBytes,
            region_nodes: files.hierarchy.regionNodes, region_edges: files.hierarchy.regionEdges,
          },
          restrictions: { ...graph.turns.stats, malformed_relations: graph.malformed.length },
          grades: graph.grades,
          restrictions_not_applied: graph.turns.reports.slice(0, REPORTED_RESTRICTIONS),
          malformed_relations: graph.malformed.slice(0, REPORTED_RESTRICTIONS),
        },
      };
    },
  };
}

/** Ways → graph → turn restrictions → grades: the graph's arrays and what the manifest reports of them. */
async function graphArrays(osmFile: string, dem: RoadsDem | null, onProgress: (fraction: number, message: string) => void) {
  onProgress(0, 'reading routable ways');
  const ways = await readRoadWays(osmFile, wayProfile);
  onProgress(0.5, 'building the graph');
  const graph = buildRoadGraph(ways);
  onProgress(0.7, 'placing turn restrictions');
  const relations = await readTurnRestrictions(osmFile);
  const turns = applyTurnRestrictions(graph, relations.restrictions);
  let arrays = turns.arrays;
  let grades: Record<string, unknown> = { terrain_release: null };
  if (dem) {
    onProgress(0.72, `grading the edges with terrain release ${dem.releaseId}`);
    const graded = computeEdgeGrades(arrays, dem.elevationAt);
    arrays = { ...arrays, edgeGrade: graded.grades };
    const g = graded.stats;
    grades = {
      terrain_release: dem.releaseId,
      edges_graded: g.graded,
      edges_without_height: g.noHeight,
      ferry_edges: g.ferries,
      edges_clamped: g.clamped,
      sampled_relief_m: Math.round(g.sampledReliefMetres),
      net_relief_m: Math.round(g.netReliefMetres),
    };
  }
  return { arrays, grades, turns: { stats: turns.stats, reports: turns.reports }, malformed: relations.malformed };
}
