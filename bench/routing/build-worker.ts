// One graph build of the routing benchmark, alone in its process so its peak RSS is its own
// (bench/routing/build.ts runs it under GNU time). Prints one JSON line: phase seconds with this
// process's VmHWM at the end of each, node/edge/shortcut/region counts, the contraction's wall and
// CPU seconds, the build's memory estimate and file bytes.
//
//   node --import tsx bench/routing/build-worker.ts vancouver OUT_DIR MEMORY_MB
//   node --import tsx bench/routing/build-worker.ts synthetic OUT_DIR MEMORY_MB NODES SEED
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { writeRoadFiles, type RoadFiles, type RoadFilesStep } from '../../ingest/roads/write-road-files.ts';
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
  /** Junctions with a motor turn restriction; road nodes of their regions and those nodes' arrival nodes. */
  restrictions: number;
  regionNodes: number;
  regionEdges: number;
  /** From the end of roads.graph to the hierarchy's arrays: restriction regions, input, contraction, layout. */
  contractionSeconds: number;
  contractionCpuSeconds: number;
  estimateBytes: number;
  graphBytes: number;
  chBytes: number;
  phases: BuildPhase[];
  seconds: number;
}

type Built = Omit<WorkerReport, 'phases' | 'seconds' | 'contractionSeconds' | 'contractionCpuSeconds'>;

const vmHwm = () => Number(/^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

const phases: BuildPhase[] = [];
const started = performance.now();
let mark = started;
const endPhase = (label: string) => {
  const now = performance.now();
  phases.push({ label, seconds: (now - mark) / 1000, peakRssBytes: vmHwm() });
  mark = now;
};
const cpuSeconds = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};
/** Wall and CPU seconds from the end of roads.graph to the end of the hierarchy's arrays. */
const contraction = { wallFrom: 0, cpuFrom: 0, seconds: 0, cpuSeconds: 0 };
const onStep = (step: RoadFilesStep) => {
  endPhase(step);
  if (step === 'write roads.graph') {
    contraction.wallFrom = performance.now();
    contraction.cpuFrom = cpuSeconds();
  } else if (step === 'hierarchy arrays') {
    contraction.seconds = (performance.now() - contraction.wallFrom) / 1000;
    contraction.cpuSeconds = cpuSeconds() - contraction.cpuFrom;
  }
};

const filesReport = (files: RoadFiles): Omit<Built, 'nodes' | 'edges' | 'restrictions'> => ({
  shortcuts: files.hierarchy.shortcuts, regionNodes: files.hierarchy.regionNodes, regionEdges: files.hierarchy.regionEdges,
  estimateBytes: files.estimate.bytes, graphBytes: files.graphBytes, chBytes: files.chBytes,
});

async function vancouver(outDir: string, memoryBudgetMb: number): Promise<Built> {
  // The release build as the roads job runs it; its progress messages (sent synchronously as
  // each step starts) split the phases.
  let current = 'hash the input';
  const spec = await prepareRoadsRelease(sharedData(VANCOUVER_PBF), {
    memoryBudgetMb,
    onProgress: (_fraction, message) => {
      endPhase(current);
      current = message;
    },
    onStep,
  });
  const stats = (await spec.build(outDir)).stats as {
    nodes: number; edges: number; bytes: number; estimated_peak_bytes: number;
    hierarchy: { shortcuts: number; bytes: number; region_nodes: number; region_edges: number };
    restrictions: { forbiddenPairs: number };
  };
  return {
    nodes: stats.nodes, edges: stats.edges, shortcuts: stats.hierarchy.shortcuts, restrictions: stats.restrictions.forbiddenPairs,
    regionNodes: stats.hierarchy.region_nodes, regionEdges: stats.hierarchy.region_edges, estimateBytes: stats.estimated_peak_bytes,
    graphBytes: stats.bytes - stats.hierarchy.bytes, chBytes: stats.hierarchy.bytes,
  };
}

async function synthetic(outDir: string, memoryBudgetMb: number, nodes: number, seed: number): Promise<Built> {
  const arrays = syntheticRoadGraph({ nodes, seed });
  endPhase('generate the synthetic graph');
  const counts = { nodes: arrays.nodeLng.length, edges: arrays.edgeTarget.length, restrictions: arrays.turnInEdge.length };
  const files = await writeRoadFiles(outDir, arrays, { memoryBudgetMb, onStep });
  return { ...counts, ...filesReport(files) };
}

const [which, outDir, memoryArg, nodesArg, seedArg] = process.argv.slice(2);
const memoryMb = Number(memoryArg);
const nodes = Number(nodesArg);
const seed = Number(seedArg);
if (outDir) await mkdir(outDir, { recursive: true });
let built: Built;
if (!outDir || !Number.isInteger(memoryMb) || memoryMb <= 0) built = usage();
else if (which === 'vancouver') built = await vancouver(outDir, memoryMb);
else if (which === 'synthetic' && Number.isInteger(nodes) && nodes > 0 && Number.isInteger(seed)) built = await synthetic(outDir, memoryMb, nodes, seed);
else built = usage();

function usage(): never {
  console.error('usage: build-worker.ts vancouver OUT_DIR MEMORY_MB | synthetic OUT_DIR MEMORY_MB NODES SEED');
  process.exit(2);
}
const report: WorkerReport = {
  ...built, contractionSeconds: contraction.seconds, contractionCpuSeconds: contraction.cpuSeconds, phases, seconds: (performance.now() - started) / 1000,
};
console.log(JSON.stringify(report));
