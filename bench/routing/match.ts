/**
 * `npm run bench:routing:match`: POST /match with 200-point GPS traces on the Vancouver roads
 * release (pelias-vancouver_canada.osm.pbf, © OpenStreetMap contributors, ODbL) through the whole
 * API in this process (test/support/api-stack.ts: key auth, rate limit, metering, validation,
 * the engine and the JSON answer; Fastify inject instead of a socket), one request at a time.
 * Traces follow routes between seeded random points, a fix every 1 to 30 s (chosen so 200 fixes
 * fit the route) at the route's speed, with Gaussian noise of `--noise` metres (gps_accuracy the
 * same). Prints p50/p95/p99 beside the 100 ms ceiling, and the engine's own share (matchTrace).
 *
 *   npm run bench:routing:match [-- --traces 100] [--passes 3] [--noise 10] [--seed 1]
 */
import { parseArgs } from 'node:util';
import { costModel } from '../../engines/routing/cost-model.ts';
import { matchTrace } from '../../engines/routing/match/match-trace.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../../test/support/api-stack.ts';
import { sharedData } from '../../test/support/paths.ts';
import { randomRoutes, sampleTrace } from '../../test/support/routing/match-traces.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

const CEILING_MS = 100;
const POINTS = 200;

const { values } = parseArgs({
  options: {
    traces: { type: 'string', default: '100' },
    passes: { type: 'string', default: '3' },
    noise: { type: 'string', default: '10' },
    seed: { type: 'string', default: '1' },
  },
});
const traceCount = Number(values.traces);
const passes = Number(values.passes);
const noise = Number(values.noise);

function percentiles(ms: number[]): { n: number; p50: number; p95: number; p99: number; max: number; mean: number } {
  const s = [...ms].sort((a, b) => a - b);
  const rank = (p: number) => s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
  return { n: s.length, p50: rank(50), p95: rank(95), p99: rank(99), max: s[s.length - 1]!, mean: s.reduce((a, b) => a + b, 0) / s.length };
}
const fmt = (v: number) => `${v.toFixed(1)} ms`;

const stack = await ApiStack.create('bench_match');
try {
  let started = Date.now();
  const release = await stack.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await stack.start();
  await stack.enable(release);
  await stack.waitForRelease(release.id, ROADS_KIND);
  console.log(`roads release of Vancouver built and enabled in ${((Date.now() - started) / 1000).toFixed(1)} s`);

  const rnd = random(Number(values.seed));
  const bodies: { points: { lng: number; lat: number; time: number; accuracy: number }[]; gps_accuracy: number }[] = [];
  const intervals: number[] = [];
  await stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => {
    const model = costModel(network.graph, 'auto');
    const routes = randomRoutes(network, model, rnd, traceCount, [-123.24, 49.2, -123.03, 49.3], 3000, 16000);
    for (const route of routes) {
      const interval = Math.max(1, Math.min(30, Math.floor(route.seconds / POINTS)));
      const fixes = sampleTrace(model, route, interval, noise, rnd).slice(0, POINTS);
      if (fixes.length < POINTS) continue;
      intervals.push(interval);
      bodies.push({ points: fixes.map((f) => ({ lng: f.lng, lat: f.lat, time: f.time, accuracy: noise })), gps_accuracy: noise });
    }
  });
  intervals.sort((a, b) => a - b);
  console.log(`${bodies.length} traces of ${POINTS} fixes, noise ${noise} m, a fix every ${intervals[0]}..${intervals[intervals.length - 1]} s (median ${intervals[intervals.length >> 1]} s)`);

  // Warm-up pass (JIT, caches), then the timed passes.
  for (const body of bodies) {
    const answer = await stack.post('/match', body);
    if (answer.status !== 200) throw new Error(`warm-up: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  const http: number[] = [];
  const statuses = new Map<number, number>();
  started = Date.now();
  for (let pass = 0; pass < passes; pass++) {
    for (const body of bodies) {
      const t0 = performance.now();
      const answer = await stack.post('/match', body);
      http.push(performance.now() - t0);
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
    }
  }
  const wall = (Date.now() - started) / 1000;

  const engine: number[] = [];
  await stack.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => {
    const model = costModel(network.graph, 'auto');
    for (const body of bodies) {
      const fixes = body.points.map((p) => ({ lng: p.lng, lat: p.lat, time: p.time, accuracy: p.accuracy }));
      const t0 = performance.now();
      matchTrace(network, model, fixes, { gpsAccuracy: body.gps_accuracy });
      engine.push(performance.now() - t0);
    }
  });

  const h = percentiles(http);
  const e = percentiles(engine);
  console.log(`statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(', ')}; ${(http.length / wall).toFixed(1)} requests/s sequential`);
  console.log('| POST /match, 200 fixes | n | p50 | p95 | p99 | max | mean | ceiling |');
  console.log('|---|---|---|---|---|---|---|---|');
  console.log(`| full stack (inject) | ${h.n} | ${fmt(h.p50)} | ${fmt(h.p95)} | ${fmt(h.p99)} | ${fmt(h.max)} | ${fmt(h.mean)} | p95 ≤ ${CEILING_MS} ms: ${h.p95 <= CEILING_MS ? 'met' : 'MISSED'} |`);
  console.log(`| engine only (matchTrace) | ${e.n} | ${fmt(e.p50)} | ${fmt(e.p95)} | ${fmt(e.p99)} | ${fmt(e.max)} | ${fmt(e.mean)} | |`);
} finally {
  await stack.close();
}
