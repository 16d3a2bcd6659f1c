/**
 * `npm run bench:routing:build`: the road graph builds of the routing issue, each in its own
 * process measured by GNU time (bench/support/measure.ts), so peak RSS is per build:
 *
 * 1. the roads release of the Pelias Vancouver extract as the roads job builds it
 *    (prepareRoadsRelease → build into a temp dir: ways, graph, turn restrictions, hierarchy);
 * 2. the synthetic national graph (synthetic-graph.ts, `--nodes`, default 5,000,000): generation,
 *    then writeRoadFiles (roads.graph, contraction, roads.ch).
 *
 *   npm run bench:routing:build [-- --nodes 5000000] [--seed 1] [--timeout-min 30]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { runMeasured, type Measured } from '../support/measure.ts';
import type { WorkerReport } from './build-worker.ts';

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
    'timeout-min': { type: 'string', default: '30' },
  },
});
const nodes = Number(values.nodes);
const seed = Number(values.seed);
if (!Number.isInteger(nodes) || nodes < 1000) throw new Error(`--nodes must be an integer ≥ 1000, got ${values.nodes}`);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
const timeoutMs = Number(values['timeout-min']) * 60_000;
const log = (line: string) => process.stderr.write(`${line}\n`);
const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'build-worker.ts');

interface Build { label: string; measured: Measured; report: WorkerReport }

async function measuredBuild(label: string, args: string[]): Promise<Build> {
  log(`${label} ...`);
  const measured = await runMeasured(process.execPath, ['--import', 'tsx', WORKER, ...args], { timeoutMs, cwd: REPO_ROOT });
  if (measured.code !== 0) throw new Error(`${label}: exit ${measured.code}${measured.timedOut ? ' (timed out)' : ''}\n${measured.stderr.slice(-2000)}`);
  return { label, measured, report: JSON.parse(measured.stdout.trim().split('\n').at(-1)!) as WorkerReport };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;
const count = (n: number) => n.toLocaleString('en-CA');

function table(builds: Build[]): string {
  const rows: [string, (b: Build) => string][] = [
    ['nodes / directed edges', (b) => `${count(b.report.nodes)} / ${count(b.report.edges)}`],
    ['shortcuts', (b) => count(b.report.shortcuts)],
    ['wall time (spawn to exit)', (b) => `${b.measured.seconds.toFixed(1)} s`],
    ['of which in the build', (b) => `${b.report.seconds.toFixed(1)} s`],
    ['CPU time (user + system)', (b) => (b.measured.cpuSeconds === null ? 'n/a' : `${b.measured.cpuSeconds.toFixed(1)} s`)],
    ['peak RSS', (b) => mib(b.measured.peakRssBytes)],
    ['roads.graph', (b) => mib(b.report.graphBytes)],
    ['roads.ch', (b) => mib(b.report.chBytes)],
  ];
  return [
    `| ${[`${os.availableParallelism()} cores, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`, ...builds.map((b) => b.label)].join(' | ')} |`,
    `|${'---|'.repeat(builds.length + 1)}`,
    ...rows.map(([name, cell]) => `| ${[name, ...builds.map(cell)].join(' | ')} |`),
  ].join('\n');
}

function phaseLines(build: Build): string[] {
  return [
    `${build.label}, phases (seconds, VmHWM at the end):`,
    ...build.report.phases.map((p) => `  ${p.label.padEnd(34)} ${p.seconds.toFixed(2).padStart(8)} s  ${mib(p.peakRssBytes).padStart(9)}`),
  ];
}

const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-routing-build-'));
try {
  const vancouver = await measuredBuild('Vancouver roads release', ['vancouver', path.join(scratch, 'vancouver')]);
  await rm(path.join(scratch, 'vancouver'), { recursive: true, force: true });
  const synthetic = await measuredBuild(`synthetic ${count(nodes)} nodes`, ['synthetic', path.join(scratch, 'synthetic'), String(nodes), String(seed)]);
  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};`
      + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
    'each build in its own process (wall, CPU and peak RSS from GNU time); Vancouver: ../shared/data/osm/pelias-vancouver_canada.osm.pbf;'
      + ` synthetic: bench/routing/synthetic-graph.ts seed ${seed}`,
    '',
    table([vancouver, synthetic]),
    '',
    ...phaseLines(vancouver),
    ...phaseLines(synthetic),
  ].join('\n'));
} finally {
  await rm(scratch, { recursive: true, force: true });
}
