/**
 * `npm run bench:routing:isochrone`: in-process time of `isochrone` (30 minutes, auto, default
 * options, as GET /isochrone builds its cost model) on the synthetic national graph, split into
 * its three steps: the bounded search (snapping included), sampling the reached roads into the
 * time grid, and contouring the band into polygons. Origins are drawn as the serving benchmark
 * draws its isochrones (serve-requests.ts isochroneOrigin; its own seeded sequence, so not the
 * same points). One call at a time after an untimed warm-up.
 *
 * The ceiling is a mean of 30 ms per isochrone: with 16 connections on two API processes about
 * eight requests queue per process, so p95 ≤ 300 ms through the stack needs about that.
 * Wall times are the figures; the process's CPU time per call (mean) is beside them, as it is
 * what another workload on the machine distorts least. `--save FILE` keeps the figures as JSON,
 * `--compare FILE` prints them beside these; the digest (SHA-256 of every answer's JSON) shows
 * whether two builds answer identically.
 *
 *   npm run bench:routing:isochrone [-- --nodes 5000000] [--origins 200] [--seed 1] [--warmup 20]
 *                                      [--save FILE] [--compare FILE]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { costModel } from '../../engines/routing/cost-model.ts';
import { isochroneBands, isochroneGrid, isochroneReach } from '../../engines/routing/isochrone.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { ISOCHRONE_MINUTES, isochroneOrigin } from './serve-requests.ts';
import { syntheticRoadGraph } from '../../test/support/routing/synthetic-graph.ts';
import { ms, summarize, type Timings } from './timing.ts';

const CEILING_MEAN_MS = 30;
const STEPS = ['search', 'sampling', 'contouring', 'total'] as const;
type Figures = Record<(typeof STEPS)[number], { wall: Timings; cpuMean: number }>;

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    origins: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '20' },
    save: { type: 'string' },
    compare: { type: 'string' },
  },
});
const int = (name: 'nodes' | 'origins' | 'seed' | 'warmup', min: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
  return v;
};
const nodes = int('nodes', 1000);
const seed = int('seed', 0);
const log = (line: string) => process.stderr.write(`${line}\n`);

log(`generating ${nodes.toLocaleString('en-CA')} nodes and the snap index ...`);
const arrays = syntheticRoadGraph({ nodes, seed });
const graph = new RoadGraph(arrays);
const snap = SnapIndex.build(graph);
const random = seededRandom(seed);
const origins = Array.from({ length: int('origins', 1) }, () => isochroneOrigin(arrays, random));
const budget = ISOCHRONE_MINUTES * 60;

/** Wall and process CPU milliseconds since `from` (CPU time is what a busy shared machine distorts least). */
const clock = () => ({ wall: performance.now(), cpu: process.cpuUsage() });
const since = (from: ReturnType<typeof clock>, to: ReturnType<typeof clock>) => ({
  wall: to.wall - from.wall, cpu: (to.cpu.user + to.cpu.system - from.cpu.user - from.cpu.system) / 1000,
});

/** One isochrone, as `isochrone` runs it, with the milliseconds of each step. */
function timed(origin: [number, number]) {
  const model = costModel(graph, 'auto', { avoidFerries: false });
  const t0 = clock();
  const reached = isochroneReach(snap, model, origin, budget);
  const t1 = clock();
  const grid = reached && isochroneGrid(model, reached, budget);
  const t2 = clock();
  const bands = grid && isochroneBands(grid, [budget], budget);
  const t3 = clock();
  return { ms: [since(t0, t1), since(t1, t2), since(t2, t3), since(t0, t3)], edges: reached?.reach.edges.length ?? 0, cells: grid ? grid.width * grid.height : 0, bands };
}

log(`timing ${origins.length} isochrones (${int('warmup', 0)} untimed first) ...`);
for (const origin of origins.slice(0, int('warmup', 0))) timed(origin);
const digest = createHash('sha256');
const runs = origins.map((origin) => {
  const run = timed(origin);
  digest.update(JSON.stringify(run.bands));
  return run;
});
const figures = Object.fromEntries(STEPS.map((step, i) => [step, {
  wall: summarize(runs.map((r) => r.ms[i]!.wall)), cpuMean: summarize(runs.map((r) => r.ms[i]!.cpu)).mean,
}])) as Figures;
const before: Figures | null = values.compare ? (JSON.parse(readFileSync(values.compare, 'utf8')) as Figures) : null;
if (values.save) writeFileSync(values.save, JSON.stringify(figures));

const mean = (pick: (r: (typeof runs)[number]) => number) => Math.round(runs.reduce((s, r) => s + pick(r), 0) / runs.length);
const row = (step: (typeof STEPS)[number]) => {
  const { wall, cpuMean } = figures[step];
  const was = before?.[step];
  const cell = (now: number, then: number | undefined) => (then === undefined ? ms(now) : `${ms(then)} → ${ms(now)}`);
  const ceiling = step === 'total' ? `≤ ${CEILING_MEAN_MS} ms mean: ${(wall.mean / CEILING_MEAN_MS).toFixed(2)}× ${wall.mean <= CEILING_MEAN_MS ? 'met' : 'not met'}` : '';
  return `| ${step} | ${cell(wall.p50, was?.wall.p50)} | ${cell(wall.p95, was?.wall.p95)} | ${cell(wall.mean, was?.wall.mean)} | ${cell(cpuMean, was?.cpuMean)} | ${ms(wall.max)} | ${ceiling} |`;
};
console.log([
  '',
  `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
  `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}); Node ${process.version};`
    + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  `${graph.nodeCount.toLocaleString('en-CA')} nodes, ${graph.edgeCount.toLocaleString('en-CA')} edges; ${runs.length} isochrones of ${ISOCHRONE_MINUTES} min auto;`
    + ` mean ${mean((r) => r.edges).toLocaleString('en-CA')} edges entered, ${mean((r) => r.cells).toLocaleString('en-CA')} grid points`,
  `answers digest ${digest.digest('hex').slice(0, 16)}${before ? `; before → now from ${values.compare}` : ''}`,
  '',
  '| step | p50 | p95 | mean | CPU mean | max | ceiling |',
  '|---|---|---|---|---|---|---|',
  ...STEPS.map(row),
].join('\n'));
