/**
 * `npm run bench:routing:build`: the road graph builds of the routing issue, each in its own
 * process measured by GNU time (bench/support/measure.ts), so peak RSS is per build (the whole
 * process, runtime included):
 *
 * 1. the roads release of the Pelias Vancouver extract as the roads job builds it
 *    (prepareRoadsRelease → build into a temp dir: ways, graph, turn restrictions, hierarchy);
 * 2. the synthetic national graph (synthetic-graph.ts) at each of `--nodes` (a comma-separated
 *    list, default 5,000,000), one after another: generation, then writeRoadFiles (roads.graph,
 *    restriction regions, contraction, roads.ch).
 *
 * Every build runs within `--memory-mb` (default ROADS_BUILD_MEMORY_MB), its V8 heap limited to
 * what build-memory.ts derives from it. Human lines go to stderr; with `--json` one JSON object
 * is printed last.
 *
 *   npm run bench:routing:build [-- --nodes 5000000,10000000,25000000] [--seed 1] [--memory-mb N]
 *     [--timeout-min 90] [--skip-vancouver] [--json]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { roadBuildHeapMb } from '../../ingest/roads/build-memory.ts';
import { loadConfig } from '../../lib/config.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { runMeasured, type Measured } from '../support/measure.ts';
import type { WorkerReport } from './build-worker.ts';
import { buildPhaseLines, buildTable, type Build } from './build-table.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
    'memory-mb': { type: 'string' },
    'timeout-min': { type: 'string', default: '90' },
    'skip-vancouver': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const sizes = values.nodes.split(',').map((s) => Number(s.trim()));
const seed = Number(values.seed);
const memoryMb = values['memory-mb'] === undefined ? loadConfig().roadsBuildMemoryMb : Number(values['memory-mb']);
if (sizes.some((n) => !Number.isInteger(n) || n < 1000)) throw new Error(`--nodes must be integers ≥ 1000, comma-separated; got ${values.nodes}`);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
if (!Number.isInteger(memoryMb) || memoryMb < 1) throw new Error(`--memory-mb must be a positive integer, got ${values['memory-mb']}`);
const timeoutMs = Number(values['timeout-min']) * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-worker.ts');
const load = () => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function measuredBuild(label: string, args: string[]): Promise<Build> {
  const loadBefore = load();
  log(`${label} (load average ${loadBefore}) ...`);
  const measured: Measured = await runMeasured(
    process.execPath, [`--max-old-space-size=${roadBuildHeapMb(memoryMb)}`, '--import', 'tsx', WORKER, ...args], { timeoutMs, cwd: REPO_ROOT },
  );
  if (measured.code !== 0) throw new Error(`${label}: exit ${measured.code}${measured.timedOut ? ' (timed out)' : ''}\n${measured.stderr.slice(-2000)}`);
  const build: Build = { label, measured, report: JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as WorkerReport, loadBefore, loadAfter: load() };
  log(buildPhaseLines(build).join('\n'));
  return build;
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-routing-build-'));
const builds: Build[] = [];
try {
  if (!values['skip-vancouver']) {
    builds.push(await measuredBuild('Vancouver roads release', ['vancouver', path.join(scratch, 'vancouver'), String(memoryMb)]));
    await rm(path.join(scratch, 'vancouver'), { recursive: true, force: true });
  }
  for (const nodes of sizes) {
    const dir = path.join(scratch, `synthetic-${nodes}`);
    builds.push(await measuredBuild(`synthetic ${nodes.toLocaleString('en-CA')} nodes`, ['synthetic', dir, String(memoryMb), String(nodes), String(seed)]));
    await rm(dir, { recursive: true, force: true });
  }
} finally {
  await rm(scratch, { recursive: true, force: true });
}
const machine = {
  cores: os.availableParallelism(), cpu: os.cpus()[0]?.model.trim() ?? 'unknown CPU', memGiB: Number((os.totalmem() / 2 ** 30).toFixed(1)), node: process.version,
};
const command = `node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`;
log([
  '',
  `command: ${command}`,
  `machine: ${machine.cores} cores (${machine.cpu}), ${machine.memGiB} GiB; Node ${machine.node}; ROADS_BUILD_MEMORY_MB ${memoryMb}`
    + ` (worker heap --max-old-space-size=${roadBuildHeapMb(memoryMb)})`,
  'each build in its own process (wall, CPU and peak RSS from GNU time); Vancouver: ../shared/data/osm/pelias-vancouver_canada.osm.pbf;'
    + ` synthetic: test/support/routing/synthetic-graph.ts seed ${seed}`,
  '',
  buildTable(builds),
].join('\n'));
if (values.json) {
  console.log(JSON.stringify({
    command, machine, memoryMb, heapMb: roadBuildHeapMb(memoryMb), seed,
    builds: builds.map((b) => ({
      label: b.label, loadBefore: b.loadBefore, loadAfter: b.loadAfter,
      wallSeconds: b.measured.seconds, cpuSeconds: b.measured.cpuSeconds, peakRssBytes: b.measured.peakRssBytes,
      ...b.report,
    })),
  }));
}
