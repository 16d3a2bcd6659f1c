/**
 * The Vancouver road graph built once per test file with the real tag model, written and read
 * back through graph-file so the tests route on exactly what a release would load.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { buildRoadGraph, type RoadGraphBuild } from '../../ingest/roads/graph-build.ts';
import { readRoadWays } from '../../ingest/roads/read-ways.ts';
import { wayProfile } from '../../ingest/roads/way-tags.ts';
import { sharedData } from '../support/paths.ts';

export interface VancouverGraph {
  graph: RoadGraph;
  build: RoadGraphBuild;
  close(): Promise<void>;
}

export async function openVancouverGraph(): Promise<VancouverGraph> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-routing-'));
  const ways = await readRoadWays(sharedData('osm/pelias-vancouver_canada.osm.pbf'), wayProfile);
  const build = buildRoadGraph(ways);
  const file = path.join(dir, 'roads.graph');
  await writeGraphFile(file, build.arrays);
  const graph = await RoadGraph.open(file);
  return { graph, build, close: () => rm(dir, { recursive: true, force: true }) };
}

export function median(values: number[]): number {
  const s = [...values].sort((x, y) => x - y);
  return s.length === 0 ? NaN : s[Math.floor(s.length / 2)]!;
}
