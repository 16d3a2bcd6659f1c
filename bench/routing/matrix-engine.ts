/**
 * `node --import tsx bench/routing/matrix-engine.ts`: in-process time of `travelMatrix` (10×10,
 * auto, default options, as POST /matrix runs it in a routing worker) on the synthetic graph
 * contracted in memory, over matrices drawn as the serving benchmark draws them
 * (serve-requests.ts). One call at a time after an untimed warm-up; wall time and process CPU
 * time per matrix, and a digest (SHA-256 of every answer) to show two builds answer the same.
 *
 *   node --import tsx bench/routing/matrix-engine.ts [--nodes 1000000] [--matrices 200] [--seed 1] [--warmup 20]
 */
import { createHash } from 'node:crypto';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { costModel } from '../../engines/routing/cost-model.ts';
import { travelMatrix } from '../../engines/routing/matrix.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { syntheticNetwork } from './bench-network.ts';
import { benchRequests } from './serve-requests.ts';
import { ms, summarize } from './timing.ts';

const MAX_METRES = 250_000;

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '1000000' },
    matrices: { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    warmup: { type: 'string', default: '20' },
  },
});
const int = (name: keyof typeof values, min: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
  return v;
};
const log = (line: string) => process.stderr.write(`${line}\n`);

log('generating and contracting the synthetic graph ...');
const network = syntheticNetwork(int('nodes', 1000), int('seed', 0));
const snap = SnapIndex.build(network.graph);
const bodies = benchRequests(network.graph.arrays, { routes: 1, isochrones: 1, matrices: int('matrices', 1) }, int('seed', 0)).matrices
  .map((r) => JSON.parse(r.body!) as { origins: LngLat[]; destinations: LngLat[] });
const model = costModel(network.graph, 'auto', { avoidFerries: false });
const run = (b: (typeof bodies)[number]) => travelMatrix({ snap, hierarchy: network.hierarchy }, model, b.origins, b.destinations, MAX_METRES);

log(`timing ${bodies.length} matrices (${int('warmup', 0)} untimed first) ...`);
for (const b of bodies.slice(0, int('warmup', 0))) run(b);
const digest = createHash('sha256');
const wall: number[] = [];
const cpu: number[] = [];
for (const b of bodies) {
  const [w0, c0] = [performance.now(), process.cpuUsage()];
  const answer = run(b);
  const c1 = process.cpuUsage(c0);
  wall.push(performance.now() - w0);
  cpu.push((c1.user + c1.system) / 1000);
  digest.update(JSON.stringify(answer));
}
const w = summarize(wall);
console.log([
  `${network.label}: ${bodies.length} matrices 10×10 auto; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  `wall p50 ${ms(w.p50)}, p95 ${ms(w.p95)}, mean ${ms(w.mean)}; CPU mean ${ms(summarize(cpu).mean)}; answers digest ${digest.digest('hex').slice(0, 16)}`,
].join('\n'));
