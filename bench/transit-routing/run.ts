/**
 * `npm run bench:transit-routing`: GET /route?mode=transit through the full stack of `canmap serve`
 * (own process, key auth) on a transit release of TriMet's two-route feed scaled to ≥ --stop-times
 * (bench/transit/generate.ts, reused when already under bench/out/), ingested as the transit
 * benchmark does (prepareTransitRelease → publishRelease → enableRelease). autocannon (in this
 * process) keeps 16 connections busy for --duration seconds over --queries seeded random journeys
 * (from/to within 300 m of random served stops, depart_at 06:00–21:00 local on a random service
 * date, sent as the UTC instant); printed beside the target p95 ≤ 50 ms.
 *
 * Beside it, in this process on the same release (openTransitRelease): the brute-force reference
 * (test/transit/journey-reference.ts, with the router's walking model) on the first --reference
 * queries, and the router's planJourneys on the same queries: time per query, speed-up, and how
 * many router answers equal the reference (arrival, transfers). No timed assertions.
 *
 *   npm run bench:transit-routing [-- --duration 20 --queries 500 --stop-times 5000000 --reference 50 --seed 1 --processes 1]
 */
import { access, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { TransitData } from '../../engines/transit/data.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { referenceEarliestArrival, tripIndexOf, type LngLat, type ReferenceAnswer } from '../../test/support/transit/journey-reference.ts';
import { transitNetwork } from '../../engines/transit/journeys/network.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { transitWalking } from '../../engines/transit/journeys/walking.ts';
import { freePort, startCanmap, treeMemoryOf } from '../support/processes.ts';
import { loadRequests } from '../routing/load-requests.ts';
import { ms, ratio, summarize } from '../routing/timing.ts';
import { DEFAULT_SOURCE_FEED, defaultScaledFeedDir, generateScaledFeed } from '../transit/generate.ts';

const CONNECTIONS = 16;
const TARGET_P95_MS = 50;
const FEED_ID = 'trimet';
/** Passed to both the reference and the router (the router's default). */
const MAX_TRANSFERS = 4;

const { values } = parseArgs({
  options: {
    duration: { type: 'string', default: '20' },
    queries: { type: 'string', default: '500' },
    'stop-times': { type: 'string', default: '5000000' },
    reference: { type: 'string', default: '50' },
    seed: { type: 'string', default: '1' },
    processes: { type: 'string', default: '1' },
  },
});
const int = (name: keyof typeof values, min: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
  return v;
};
const seconds = int('duration', 1);
const queryCount = int('queries', 1);
const stopTimes = int('stop-times', 1000);
const referenceCount = Math.min(int('reference', 0), queryCount);
const seed = int('seed', 0);
const apiProcesses = int('processes', 1);
const log = (line: string) => process.stderr.write(`${line}\n`);

// ---- queries -------------------------------------------------------------------------------------

interface Query {
  from: LngLat;
  to: LngLat;
  departAt: number;
  path: string;
}

function drawQueries(data: TransitData, feedId: string, count: number, seed: number): Query[] {
  let state = seed * 7919 + 17;
  const random = () => ((state = (state * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const feedIndex = data.feeds.findIndex((f) => f.feedId === feedId);
  const feed = data.feeds[feedIndex]!;
  const stops: number[] = [];
  for (let s = 0; s < data.stops.length; s++) {
    const { lon, lat } = data.stops[s]!;
    if (data.stopFeed[s] === feedIndex && lon !== null && lat !== null && data.stopTimes.stopStart[s + 1]! > data.stopTimes.stopStart[s]!) stops.push(s);
  }
  if (stops.length < 2) throw new Error(`feed ${feedId} has ${stops.length} served stops`);
  const near = (stop: number): LngLat => {
    const { lon, lat } = data.stops[stop]!;
    const metres = random() * 300;
    const angle = random() * 2 * Math.PI;
    const dLat = (metres * Math.sin(angle)) / 111_320;
    const dLng = (metres * Math.cos(angle)) / (111_320 * Math.cos((lat! * Math.PI) / 180));
    return [Number((lon! + dLng).toFixed(6)), Number((lat! + dLat).toFixed(6))];
  };
  return Array.from({ length: count }, () => {
    const a = stops[Math.floor(random() * stops.length)]!;
    let b = a;
    while (b === a) b = stops[Math.floor(random() * stops.length)]!;
    const from = near(a);
    const to = near(b);
    // A local time of day on a service date: base epoch (local noon − 12 h) + 06:00..21:00.
    const d = Math.floor(random() * feed.baseEpochs.length);
    const departAt = feed.baseEpochs[d]! + 6 * 3600 + Math.floor(random() * 15 * 3600);
    const iso = new Date(departAt * 1000).toISOString().slice(0, 19) + 'Z';
    return { from, to, departAt, path: `/route?mode=transit&from=${from.join(',')}&to=${to.join(',')}&depart_at=${iso}` };
  });
}

// ---- run -----------------------------------------------------------------------------------------

const feedDir = defaultScaledFeedDir(stopTimes);
if (!(await access(path.join(feedDir, 'stop_times.txt')).then(() => true, () => false))) {
  log(`generating ${feedDir} ...`);
  await generateScaledFeed({ feed: DEFAULT_SOURCE_FEED, stopTimes, out: feedDir });
}

const env = await createTestEnv('bench_transit_routing', { LOG_LEVEL: 'warn', RELEASE_POLL_SECONDS: '3600' });
const pool = createPool(env.config.databaseUrl, 2);
const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-transit-routing-'));
let server: ReturnType<typeof startCanmap> | null = null;
try {
  let started = performance.now();
  log(`ingesting ${feedDir} ...`);
  const spec = await prepareTransitRelease(
    [{ id: FEED_ID, source: feedDir, licence: 'bench', attribution: 'TriMet (scaled copy)' }],
    { workDir, fetchTimeoutMs: 60_000, maxDownloadBytes: 4 * 1024 ** 3 },
  );
  const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
  await enableRelease(pool, release.id, 'bench');
  const buildSeconds = (performance.now() - started) / 1000;
  log(`release ${release.id}: ${release.manifest.stats.stop_times} stop_times, built in ${buildSeconds.toFixed(1)} s`);
  const { key } = await createKey(pool, {});

  started = performance.now();
  const data = await openTransitRelease(release.path, release.manifest);
  const openSeconds = (performance.now() - started) / 1000;
  started = performance.now();
  transitNetwork(data, FEED_ID);
  const networkSeconds = (performance.now() - started) / 1000;
  const queries = drawQueries(data, FEED_ID, queryCount, seed);
  const walking = transitWalking(data, FEED_ID)!;

  // ---- in-process: the reference and the router on the first queries ----
  const subset = queries.slice(0, referenceCount);
  started = performance.now();
  tripIndexOf(data);
  const indexSeconds = (performance.now() - started) / 1000;
  log(`reference on ${subset.length} queries ...`);
  const referenceMs: number[] = [];
  const referenceAnswers: (ReferenceAnswer | null)[] = [];
  for (const q of subset) {
    const t0 = performance.now();
    referenceAnswers.push(referenceEarliestArrival(data, FEED_ID, { from: q.from, to: q.to, departAt: q.departAt, maxTransfers: MAX_TRANSFERS }, walking));
    referenceMs.push(performance.now() - t0);
  }
  const referenceTimes = summarize(referenceMs);
  log(`router on the same queries ...`);
  const ask = (q: Query) => planJourneys(data, FEED_ID, { from: q.from, to: q.to, departAt: q.departAt, maxTransfers: MAX_TRANSFERS })[0] ?? null;
  for (const q of subset) ask(q); // untimed first pass: JIT, caches
  const routerMs: number[] = [];
  const answers = subset.map((q) => {
    const t0 = performance.now();
    const journey = ask(q);
    routerMs.push(performance.now() - t0);
    return journey;
  });
  const routerTimes = summarize(routerMs);
  let same = 0;
  const mismatches: string[] = [];
  subset.forEach((q, i) => {
    const ref = referenceAnswers[i]!;
    const got = answers[i]!;
    if ((ref === null && got === null) || (ref !== null && got !== null && ref.arrival === got.arrival && ref.transfers === got.transfers)) same++;
    else if (mismatches.length < 10) {
      const show = (a: { arrival: number; transfers: number } | null) => (a ? `${new Date(a.arrival * 1000).toISOString()} / ${a.transfers} transfers` : 'none');
      mismatches.push(`  #${i} ${q.path}: reference ${show(ref)}, router ${show(got)}`);
    }
  });
  const routerLines = [
    `| router planJourneys | ${subset.length} | ${ms(routerTimes.mean)} | ${ms(routerTimes.p50)} | ${ms(routerTimes.p95)} | ${ms(routerTimes.max)} |`,
    '',
    `reference p50 / router p50: ${ratio(referenceTimes.p50, routerTimes.p50)} (mean ${ratio(referenceTimes.mean, routerTimes.mean)})`,
    `router answers equal to the reference (arrival, transfers): ${same} / ${subset.length}`,
    ...(mismatches.length ? ['first differences:', ...mismatches] : []),
  ];
  const found = referenceAnswers.filter((a) => a !== null);
  const meanTransfers = found.reduce((s, a) => s + a.transfers, 0) / Math.max(1, found.length);
  const walkOnly = found.filter((a) => a.rides === 0).length;

  // ---- over HTTP: canmap serve in its own process ----
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  started = performance.now();
  server = startCanmap(['serve', '--processes', String(apiProcesses)], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
  const probe = `${url}/transit/stops?near=${queries[0]!.from.join(',')}&radius=1000&key=${key}`;
  for (let status = 0; status !== 200;) {
    await new Promise((r) => setTimeout(r, 250));
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    if (performance.now() - started > 300_000) throw new Error(`transit release not served after 300 s (last status ${status}):\n${server.output()}`);
    status = await fetch(probe).then(async (r) => (await r.arrayBuffer(), r.status), () => 0);
  }
  const startupSeconds = (performance.now() - started) / 1000;
  log(`canmap serve answered transit after ${startupSeconds.toFixed(1)} s`);
  // Untimed: what the first answers look like (a benchmark of error answers says little).
  const firstStatuses = new Map<number, number>();
  let sampleError = '';
  for (const q of queries.slice(0, 10)) {
    const res = await fetch(`${url}${q.path}&key=${key}`);
    const body = await res.text();
    firstStatuses.set(res.status, (firstStatuses.get(res.status) ?? 0) + 1);
    if (res.status !== 200 && !sampleError) sampleError = `${res.status} ${body.slice(0, 300)}`;
  }
  log(`first 10 answers: ${[...firstStatuses].map(([s, n]) => `${n}× ${s}`).join(', ')}${sampleError ? ` (e.g. ${sampleError})` : ''}`);

  const requests = queries.map((q) => ({ method: 'GET' as const, path: q.path }));
  log(`warm-up 3 s, then ${seconds} s at ${CONNECTIONS} connections ...`);
  await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds: 3 });
  const r = await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds });
  const memory = treeMemoryOf(server.child.pid!);
  // A journey (200) and "no route" (422: nothing reaches `to` in time, as the reference agrees) are both answers.
  const answered = [...r.statuses].filter(([s]) => s === 200 || s === 422).reduce((sum, [, n]) => sum + n, 0);
  const verdict = answered === r.requests && r.errors === 0 ? (r.p95 <= TARGET_P95_MS ? 'met' : 'NOT met') : `NOT met (only ${answered} of ${r.requests} answered 200 or 422)`;

  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};`
      + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; autocannon in this process on the same cores`,
    `release: ${path.relative(REPO_ROOT, feedDir)} → ${release.id}, ${release.manifest.stats.stop_times} stop_times, built in ${buildSeconds.toFixed(0)} s;`
      + ` opened in-process in ${openSeconds.toFixed(1)} s, its RAPTOR network built in ${networkSeconds.toFixed(1)} s; canmap serve (${apiProcesses} process${apiProcesses > 1 ? 'es' : ''}) served it after ${startupSeconds.toFixed(1)} s,`
      + ` RSS after the run ${(memory.rss / 2 ** 30).toFixed(2)} GiB`,
    `queries: ${queries.length} (seed ${seed}, maxTransfers ${MAX_TRANSFERS} in-process), from/to within 300 m of two random served stops, depart_at 06:00–21:00 local on a random service date`,
    'walking: engines/transit/journeys/walking.ts (straight line × 1.25 at 1.2 m/s, 1 km access and egress, 300 m and transfers.txt footpaths), for the router and the reference',
    '',
    `| GET /route?mode=transit | connections | req/s | p50 | p95 | p99 | statuses | errors | target p95 | verdict |`,
    '|---|---|---|---|---|---|---|---|---|---|',
    `| ${seconds} s over ${queries.length} queries | ${CONNECTIONS} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${[...r.statuses].sort(([a], [b]) => a - b).map(([s, n]) => `${s}: ${n}`).join(', ')} | ${r.errors} | ≤ ${TARGET_P95_MS} ms | ${verdict} |`,
    ...(sampleError ? [`first non-200 answer: ${sampleError}`] : []),
    '',
    `in-process on the first ${subset.length} queries (reference trip index built once in ${indexSeconds.toFixed(1)} s, not counted):`,
    '| search | queries | mean | p50 | p95 | max |',
    '|---|---|---|---|---|---|',
    `| brute-force reference (time-expanded label-setting) | ${subset.length} | ${ms(referenceTimes.mean)} | ${ms(referenceTimes.p50)} | ${ms(referenceTimes.p95)} | ${ms(referenceTimes.max)} |`,
    ...routerLines,
    `reference answers: ${found.length} / ${subset.length} reachable (${walkOnly} walk only), mean ${meanTransfers.toFixed(2)} transfers`,
  ].join('\n'));
} finally {
  await server?.stop();
  await pool.end();
  await rm(workDir, { recursive: true, force: true });
  await env.cleanup();
}
