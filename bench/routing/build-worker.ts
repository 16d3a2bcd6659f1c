// One graph build of the routing benchmark, alone in its process so its peak RSS is its own
// (bench/routing/build.ts runs it under GNU time). Prints one JSON line: phase seconds with this
// process's VmHWM at the end of each, node/edge/shortcut counts and file bytes.
//
//   node --import tsx bench/routing/build-worker.ts vancouver OUT_DIR
//   node --import tsx bench/routing/build-worker.ts synthetic OUT_DIR NODES SEED
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { writeRoadFiles } from '../../ingest/roads/write-road-files.ts';
import { sharedData } from '../../test/support/paths.ts';
import { VANCOUVER_PBF } from './bench-network.ts';
import { syntheticRoadGraph } from '../../test/support/routing/synthetic-graph.ts';

export interface BuildPhase {
  label: string;
  seconds: number;
  /** VmHWM at the end of the phase, bytes. */
  peakRssBytes: number;
}

export interface WorkerReport {
  nodes: number;
  edges: number;
  shortcuts: number;
  graphBytes: number;
  chBytes: number;
  phases: BuildPhase[];
  seconds: number;
}

const vmHwm = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

const phases: BuildPhase[] = [];
const started = performance.now();
let mark = started;
const endPhase = (label: string) => {
  const now = performance.now();
  phases.push({ label, seconds: (now - mark) / 1000, peakRssBytes: vmHwm() });
  mark = now;
};

async function vancouver(outDir: string): Promise<Omit<WorkerReport, 'phases' | 'seconds'>> {
  // The release build as the roads job runs it; its progress messages (sent synchronously as
  // each step starts) split the phases.
  let current = 'hash the input';
  const spec = await prepareRoadsRelease(sharedData(VANCOUVER_PBF), {
    onProgress: (_fraction, message) => {
      endPhase(current);
      current = message;
    },
  });
  const stats = (await spec.build(outDir)).stats as { nodes: number; edges: number; bytes: number; hierarchy: { shortcuts: number; bytes: number } };
  return {
    nodes: stats.nodes, edges: stats.edges, shortcuts: stats.hierarchy.shortcuts,
    graphBytes: stats.bytes - stats.hierarchy.bytes, chBytes: stats.hierarchy.bytes,
  };
}

async function synthetic(outDir: string, nodes: number, seed: number): Promise<Omit<WorkerReport, 'phases' | 'seconds'>> {
  const arrays = syntheticRoadGraph({ nodes, seed });
  endPhase('generate the synthetic graph');
  const files = await writeRoadFiles(outDir, arrays);
  const writeSeconds = (performance.now() - mark) / 1000 - files.hierarchy.seconds;
  const peak = vmHwm();
  phases.push({ label: 'contract the hierarchy', seconds: files.hierarchy.seconds, peakRssBytes: peak });
  phases.push({ label: 'write roads.graph + roads.ch', seconds: writeSeconds, peakRssBytes: peak });
  return {
    nodes: arrays.nodeLng.length, edges: arrays.edgeTarget.length, shortcuts: files.hierarchy.shortcuts,
    graphBytes: files.graphBytes, chBytes: files.chBytes,
  };
}

const [which, outDir, nodesArg, seedArg] = process.argv.slice(2);
const nodes = Number(nodesArg);
const seed = Number(seedArg);
if (outDir) await mkdir(outDir, { recursive: true });
let built: Omit<WorkerReport, 'phases' | 'seconds'>;
if (which === 'vancouver' && outDir) built = await vancouver(outDir);
else if (which === 'synthetic' && outDir && Number.isInteger(nodes) && nodes > 0 && Number.isInteger(seed)) built = await synthetic(outDir, nodes, seed);
else {
  console.error('usage: build-worker.ts vancouver OUT_DIR | synthetic OUT_DIR NODES SEED');
  process.exit(2);
}
const report: WorkerReport = { ...built, phases, seconds: (performance.now() - started) / 1000 };
console.log(JSON.stringify(report));
