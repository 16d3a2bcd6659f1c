// Writes a synthetic national road graph (synthetic-graph.ts) as DIR/roads.graph and prints what
// it took: nodes, edges, generation and write seconds, file bytes and this process's peak RSS.
//
//   node --import tsx bench/routing/write-synthetic-release.ts --nodes 5000000 --seed 1 --out DIR
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { writeGraphFile } from '../../engines/routing/graph-file.ts';
import { ROADS_GRAPH_FILE } from '../../schemas/roads-release.ts';
import { selfPeakRssBytes } from '../support/self-memory.ts';
import { syntheticRoadGraphWithStats } from '../../test/support/routing/synthetic-graph.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
    out: { type: 'string' },
  },
});
const nodes = Number(values.nodes);
const seed = Number(values.seed);
if (!values.out || !Number.isInteger(nodes) || nodes < 1 || !Number.isInteger(seed)) {
  console.error('usage: write-synthetic-release.ts --nodes N --seed S --out DIR');
  process.exit(2);
}

const started = performance.now();
const { arrays, stats } = syntheticRoadGraphWithStats({ nodes, seed });
const generateSeconds = (performance.now() - started) / 1000;
await mkdir(values.out, { recursive: true });
const file = path.join(values.out, ROADS_GRAPH_FILE);
const bytes = await writeGraphFile(file, arrays);
const seconds = (performance.now() - started) / 1000;
console.log(JSON.stringify({
  file,
  nodes: arrays.nodeLng.length,
  edges: arrays.edgeTarget.length,
  edgesPerNode: Number((arrays.edgeTarget.length / arrays.nodeLng.length).toFixed(3)),
  shapePoints: arrays.shapeCoords.length / 2,
  turnRestrictions: arrays.turnInEdge.length,
  generateSeconds: Number(generateSeconds.toFixed(2)),
  seconds: Number(seconds.toFixed(2)),
  fileBytes: bytes,
  peakRssBytes: await selfPeakRssBytes(),
  ...stats,
}, null, 2));
