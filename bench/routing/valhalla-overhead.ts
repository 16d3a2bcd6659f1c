/**
 * `npm run bench:routing:valhalla`: the same POST /match (200-fix traces) and POST /optimized-route
 * (25 stops, start first, end last) requests on Vancouver (pelias-vancouver_canada.osm.pbf,
 * © OpenStreetMap contributors, ODbL), timed side by side through
 *
 * 1. the built-in engine, full stack (test/support/api-stack.ts over the real roads release: key
 *    auth, rate limit, metering, validation, the engine and the answer; Fastify inject), against
 *    the ceilings (match p95 ≤ 100 ms, optimized-route p95 ≤ 200 ms);
 * 2. ROUTING_BACKEND=valhalla, full stack, over a stand-in Valhalla on 127.0.0.1 that answers each
 *    request at once with a Valhalla answer "recorded" from the built-in engine's own answer to that
 *    request (valhalla-overhead-record.ts): our HTTP client, the translation both ways and the
 *    loopback, Valhalla's own compute excluded. Each answer is checked to equal the built-in one
 *    (order, point and segment counts, line positions, distance and duration to the metre/second);
 * 3. the stand-in alone: a bare POST of exactly the body our client sent, until the answer is read,
 *    so the overhead net of the loopback shows (per request: path 2 − path 3).
 *
 * One untimed pass over every request first on each path (JIT, caches, connections), then one timed.
 * The stand-in runs in this process, so its work is on the same thread as the API's.
 *
 *   npm run bench:routing:valhalla [-- --traces 100] [--stops-sets 100] [--seed 1]
 */
import os from 'node:os';
import { parseArgs } from 'node:util';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import { ApiStack } from '../../test/support/api-stack.ts';
import { sharedData } from '../../test/support/paths.ts';
import {
  matchDifferences, optimizedDifferences, optimizedRouteOf, traceAttributesOf, type OurMatch, type OurOptimized,
} from './valhalla-overhead-record.ts';
import { drawStopSets, drawTraces, STOPS, TRACE_POINTS, type MatchBody } from './valhalla-overhead-requests.ts';
import { KeyedStandIn } from './valhalla-overhead-stand-in.ts';

const MATCH_CEILING_MS = 100;
const OPTIMIZED_CEILING_MS = 200;

const { values } = parseArgs({
  options: {
    traces: { type: 'string', default: '100' },
    'stops-sets': { type: 'string', default: '100' },
    seed: { type: 'string', default: '1' },
  },
});
const traceCount = Number(values.traces);
const setCount = Number(values['stops-sets']);
const seed = Number(values.seed);

function percentiles(ms: readonly number[]): { n: number; p50: number; p95: number; p99: number } {
  const s = [...ms].sort((a, b) => a - b);
  const rank = (p: number) => (s.length ? s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]! : NaN);
  return { n: s.length, p50: rank(50), p95: rank(95), p99: rank(99) };
}
const fmt = (v: number) => (Number.isNaN(v) ? 'n/a' : `${v.toFixed(v < 10 ? 2 : 1)} ms`);

/** One request of a kind: its API body, its positions (the stand-in's key) and the built-in answer. */
interface Case<A> {
  body: unknown;
  positions: { lng: number; lat: number }[];
  ours: A;
}

interface Side {
  builtIn: number[];
  valhalla: number[];
  bare: number[];
  same: number;
  differences: Map<string, number>;
  failed: Map<string, number>;
  answerBytes: number;
  /** Built-in answers with more than one segment or an unmatched point (match only). */
  broken: number;
}

const cpus = os.cpus();
console.log(`machine: ${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown'}), ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB; Node ${process.version}; `
  + `${traceCount} traces of ${TRACE_POINTS} fixes, ${setCount} sets of ${STOPS} stops, seed ${seed}`);

const started = performance.now();
const standIn = await KeyedStandIn.start();
const builtIn = await ApiStack.create('bench_valhalla_builtin');
let valhalla: ApiStack | null = null;
try {
  const release = await builtIn.publish(() => prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await builtIn.start();
  await builtIn.enable(release);
  await builtIn.waitForRelease(release.id, ROADS_KIND);
  const { traces, sets } = await builtIn.server!.app.releases.use(ROADS_KIND, async (network: RoadNetwork) => ({
    traces: drawTraces(network, traceCount, seed),
    sets: drawStopSets(network, setCount, seed),
  }));
  valhalla = await ApiStack.create('bench_valhalla_path', { ROUTING_BACKEND: 'valhalla', VALHALLA_URL: standIn.origin });
  await valhalla.start();
  console.log(`Vancouver roads release built and enabled, ${traces.length} traces and ${sets.length} stop sets drawn, `
    + `Valhalla-backed API on a stand-in at ${standIn.origin}, in ${((performance.now() - started) / 1000).toFixed(1)} s`);

  /**
   * Built-in answers (the untimed pass) → prepared stand-in answers; then the timed built-in
   * pass, the Valhalla path (untimed pass with the equality check, timed pass) and the bare POSTs.
   */
  const run = async <A>(
    url: string, action: 'trace_attributes' | 'optimized_route', requests: { body: unknown; positions: { lng: number; lat: number }[] }[],
    record: (ours: A, positions: { lng: number; lat: number }[]) => unknown, differences: (valhalla: A, ours: A) => string[],
    broken: (ours: A) => boolean = () => false,
  ): Promise<Side> => {
    const side: Side = { builtIn: [], valhalla: [], bare: [], same: 0, differences: new Map(), failed: new Map(), answerBytes: 0, broken: 0 };
    const count = (map: Map<string, number>, key: string) => map.set(key, (map.get(key) ?? 0) + 1);
    const cases: Case<A>[] = [];
    for (const request of requests) {
      const answer = await builtIn.post(url, request.body);
      if (answer.status !== 200) {
        count(side.failed, `built-in ${answer.status}`);
        continue;
      }
      const json = record(answer.body as A, request.positions);
      side.answerBytes += JSON.stringify(json).length;
      standIn.prepare(action, request.positions, json);
      cases.push({ ...request, ours: answer.body as A });
      if (broken(answer.body as A)) side.broken++;
    }
    side.answerBytes /= Math.max(1, cases.length);
    for (const c of cases) {
      const t0 = performance.now();
      const answer = await builtIn.post(url, c.body);
      side.builtIn.push(performance.now() - t0);
      if (answer.status !== 200) count(side.failed, `built-in timed ${answer.status}`);
    }
    for (const c of cases) {
      const answer = await valhalla!.post(url, c.body);
      if (answer.status !== 200) {
        count(side.failed, `valhalla path ${answer.status} ${answer.body?.code ?? ''}`.trim());
        continue;
      }
      const diff = differences(answer.body as A, c.ours);
      if (diff.length === 0) side.same++;
      for (const d of diff) count(side.differences, d);
    }
    const timed: Case<A>[] = [];
    for (const c of cases) {
      const t0 = performance.now();
      const answer = await valhalla!.post(url, c.body);
      const ms = performance.now() - t0;
      if (answer.status !== 200) continue;
      side.valhalla.push(ms);
      timed.push(c);
    }
    const bodies = timed.map((c) => standIn.sentFor(action, c.positions)!);
    for (const body of bodies) await standIn.bareRoundTrip(action, body);
    for (const body of bodies) side.bare.push(await standIn.bareRoundTrip(action, body));
    return side;
  };

  const match = await run<OurMatch>(
    '/match', 'trace_attributes',
    traces.map((body: MatchBody) => ({ body, positions: body.points })),
    (ours, positions) => traceAttributesOf(ours, positions), matchDifferences,
    (ours) => ours.segments.length > 1 || ours.points.some((p) => !p.matched),
  );
  const optimized = await run<OurOptimized>(
    '/optimized-route', 'optimized_route',
    sets.map((stops) => ({ body: { stops }, positions: stops.map(([lng, lat]) => ({ lng, lat })) })),
    (ours, positions) => optimizedRouteOf(ours, positions.map((p) => [p.lng, p.lat] as const)), optimizedDifferences,
  );

  console.log('');
  console.log('| request | path | n | p50 | p95 | p99 | ceiling | p95/ceiling | same answer as built-in |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const line = (request: string, path: string, ms: readonly number[], tail: string) => {
    const p = percentiles(ms);
    console.log(`| ${request} | ${path} | ${p.n} | ${fmt(p.p50)} | ${fmt(p.p95)} | ${fmt(p.p99)} | ${tail} |`);
  };
  const rows = (request: string, side: Side, ceiling: number) => {
    const p95 = percentiles(side.builtIn).p95;
    line(request, 'built-in, full stack', side.builtIn, `${ceiling} ms | ${(p95 / ceiling).toFixed(2)} (${p95 <= ceiling ? 'within' : 'OVER'}) |`);
    line(request, 'Valhalla path, full stack (client + translation + stand-in)', side.valhalla, ` | | ${side.same}/${side.builtIn.length}`);
    line(request, 'stand-in only (bare POST round trip)', side.bare, ' | | ');
    // Paired per request: the Valhalla path's time less the bare round trip of the same request.
    line(request, 'Valhalla path − stand-in round trip (per request)', side.valhalla.map((v, i) => v - side.bare[i]!), ' | | ');
  };
  rows(`match-${TRACE_POINTS}`, match, MATCH_CEILING_MS);
  rows(`optimized-${STOPS}`, optimized, OPTIMIZED_CEILING_MS);

  console.log('');
  for (const [name, side] of [[`match-${TRACE_POINTS}`, match], [`optimized-${STOPS}`, optimized]] as const) {
    const diffs = [...side.differences].map(([k, n]) => `${k}×${n}`).join(', ') || 'none';
    const failed = [...side.failed].map(([k, n]) => `${k}×${n}`).join(', ') || 'none';
    console.log(`${name}: mismatches ${side.builtIn.length - side.same} (${diffs}); failed requests: ${failed}; `
      + `mean recorded Valhalla answer ${(side.answerBytes / 1024).toFixed(0)} KiB`
      + `${name.startsWith('match') ? `; ${side.broken} built-in matches with a break or an unmatched point` : ''}`);
  }
  if (standIn.misses > 0) console.log(`stand-in: ${standIn.misses} requests had no prepared answer`);
  console.log(`total ${((performance.now() - started) / 1000).toFixed(1)} s`);
} finally {
  await valhalla?.close();
  await builtIn.close();
  await standIn.close();
}
