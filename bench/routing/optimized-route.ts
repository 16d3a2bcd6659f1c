/**
 * `npm run bench:routing:optimized`: POST /optimized-route with 25 seeded stops within Vancouver
 * (about 15 × 9 km, each within 50 m of a road, all connected) through the full stack — key
 * auth, rate limit, metering, validation, the engine and the reply — by in-process inject on the
 * test stack over the real Vancouver roads release, one request at a time. Prints p50 / p95 / p99
 * beside the 200 ms ceiling, where the engine's time goes (table, order, legs), and the solver's
 * gap to the best of 50 random restarts of its own local search on the same matrices.
 *
 *   npm run bench:routing:optimized [-- --requests 200] [--stops 25] [--seed 1] [--gap-sets 40]
 */
import { parseArgs } from 'node:util';
import { costModel } from '../../engines/routing/cost-model.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { joinLines, legPairs, routeLegs } from '../../engines/routing/stop-order/legs.ts';
import { orderStops, type StopEnds } from '../../engines/routing/stop-order/solve.ts';
import { stopTable } from '../../engines/routing/stop-order/travel-table.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../../test/support/api-stack.ts';
import { sharedData } from '../../test/support/paths.ts';
import { ALL_ENDS, bestOfRandomRestarts } from '../../test/support/routing/stop-order-reference.ts';
import { vancouverStops } from '../../test/support/routing/stop-order-vancouver.ts';

const CEILING_MS = 200;

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '200' },
    stops: { type: 'string', default: '25' },
    seed: { type: 'string', default: '1' },
    'gap-sets': { type: 'string', default: '40' },
  },
});
const requests = Number(values.requests);
const stopCount = Number(values.stops);
const seed = Number(values.seed);
const gapSets = Number(values['gap-sets']);

function percentiles(ms: number[]): { p50: number; p95: number; p99: number; max: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  const rank = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  return { p50: rank(50), p95: rank(95), p99: rank(99), max: s[s.length - 1]!, mean: s.reduce((a, b) => a + b, 0) / s.length };
}
const fmt = (v: number) => `${v.toFixed(1)} ms`.padStart(9);
const row = (label: string, ms: number[], ceiling?: number) => {
  const p = percentiles(ms);
  const verdict = ceiling === undefined ? '' : `   ceiling ${ceiling} ms: ${p.p95 <= ceiling ? 'p95 within' : 'p95 OVER'}`;
  console.log(`${label.padEnd(34)} p50 ${fmt(p.p50)}  p95 ${fmt(p.p95)}  p99 ${fmt(p.p99)}  max ${fmt(p.max)}${verdict}`);
};

const built = performance.now();
const stack = await ApiStack.create('bench_optimized_route');
try {
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.start();
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
  const use = <T>(work: (network: RoadNetwork) => T) => stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => work(network));
  const sets: LngLat[][] = await use((network) => Array.from({ length: requests }, (_, i) => vancouverStops(network, stopCount, seed * 100_003 + i)));
  console.log(`Vancouver roads release ready and ${requests} sets of ${stopCount} stops drawn in ${((performance.now() - built) / 1000).toFixed(1)} s`);
  const ends: StopEnds[] = sets.map((_, i) => ALL_ENDS[i % ALL_ENDS.length]!);

  // Full stack, one request at a time, after a warm-up pass over 20 of them.
  const post = async (i: number) => {
    const answer = await stack.post('/optimized-route', { stops: sets[i], ...ends[i] });
    if (answer.status !== 200) throw new Error(`request ${i}: ${answer.status} ${answer.text.slice(0, 200)}`);
    return answer;
  };
  for (let i = 0; i < Math.min(20, requests); i++) await post(i);
  const wall: number[] = [];
  let bytes = 0;
  for (let i = 0; i < requests; i++) {
    const started = performance.now();
    const answer = await post(i);
    wall.push(performance.now() - started);
    bytes += answer.text.length;
  }

  // The engine's parts on the same sets (auto).
  const parts = await use((network) => {
    const model = costModel(network.graph, 'auto');
    const table: number[] = [], order: number[] = [], legs: number[] = [];
    sets.forEach((stops, i) => {
      const t0 = performance.now();
      const t = stopTable(network, model, stops)!;
      const t1 = performance.now();
      const solved = orderStops(t.seconds, ends[i]!)!;
      const t2 = performance.now();
      joinLines(routeLegs(network.graph, t.paths, legPairs(solved.order, ends[i]!.end === 'first')).map((l) => l.line));
      const t3 = performance.now();
      table.push(t1 - t0);
      order.push(t2 - t1);
      legs.push(t3 - t2);
    });
    return { table, order, legs };
  });

  console.log(`\nPOST /optimized-route, ${stopCount} stops, ${requests} requests (start/end rules in turn), mean answer ${(bytes / requests / 1024).toFixed(0)} KiB`);
  row('full stack (inject)', wall, CEILING_MS);
  row('  engine: snap + CH many-to-many', parts.table);
  row('  engine: order (solver)', parts.order);
  row('  engine: legs + joined line', parts.legs);

  // The slower modes: one search per stop instead of the hierarchy's buckets (engine only).
  for (const mode of ['bicycle', 'pedestrian'] as const) {
    const times = await use((network) => {
      const model = costModel(network.graph, mode);
      return sets.slice(0, 10).map((stops) => {
        const started = performance.now();
        stopTable(network, model, stops);
        return performance.now() - started;
      });
    });
    row(`  engine: table, mode ${mode}`, times);
  }

  // Quality: the solver against the best of 50 random restarts of its own local search.
  const gaps: number[] = [];
  const restartMs: number[] = [];
  const matrices = await use((network) => sets.slice(0, gapSets).map((stops) => stopTable(network, costModel(network.graph, 'auto'), stops)!.seconds));
  matrices.forEach((d, i) => {
    const solved = orderStops(d, ends[i]!)!;
    const started = performance.now();
    const best = bestOfRandomRestarts(d, ends[i]!, 50, 1000 + i);
    restartMs.push(performance.now() - started);
    gaps.push((solved.cost / best - 1) * 100);
  });
  const worse = gaps.filter((g) => g > 1e-9).length;
  const better = gaps.filter((g) => g < -1e-9).length;
  console.log(`\nGap to the best of 50 random restarts (${matrices.length} sets; negative = the solver is better):`);
  console.log(`  mean ${(gaps.reduce((a, b) => a + b, 0) / gaps.length).toFixed(3)} %, worst ${Math.max(...gaps).toFixed(3)} %, best ${Math.min(...gaps).toFixed(3)} %;`
    + ` solver better on ${better}, equal on ${gaps.length - worse - better}, worse on ${worse}; 50 restarts take ${percentiles(restartMs).p50.toFixed(1)} ms (p50)`);
} finally {
  await stack.close();
}
