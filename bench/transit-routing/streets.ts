/**
 * `npm run bench:transit-routing:streets`: what walking along the streets costs transit routing.
 * A synthetic grid network over downtown Vancouver (a stop every ~250 m, a bus line along every
 * row and column of the grid both ways every 10 minutes; no Vancouver GTFS is among the shared
 * data) is built into a transit release beside the real roads release of
 * ../shared/data/osm/pelias-vancouver_canada.osm.pbf. On the same seeded queries, in this
 * process: planJourneys with straight-line walks, planJourneys with street walks, the first
 * street query, the street footpaths of every stop, and how many answers equal the brute-force
 * reference given the same street walks. Then the same queries through `canmap serve` (own
 * process, key auth) with both releases enabled, 16 connections for --duration seconds, beside
 * the 50 ms p95 of bench:transit-routing. No timed assertions.
 *
 *   npm run bench:transit-routing:streets [-- --queries 500 --reference 30 --seed 1 --duration 15 --processes 1]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { roadsOpener } from '../../engines/routing/release.ts';
import { planJourneys } from '../../engines/transit/journeys/plan.ts';
import { transitWalking } from '../../engines/transit/journeys/walking.ts';
import { openTransitRelease } from '../../engines/transit/release.ts';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { writeFeedDir, type FeedTexts } from '../../test/support/gtfs-fixtures.ts';
import { REPO_ROOT, sharedData } from '../../test/support/paths.ts';
import { referenceEarliestArrival } from '../../test/support/transit/journey-reference.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { freePort, startCanmap } from '../support/processes.ts';
import { loadRequests } from '../routing/load-requests.ts';
import { ms, ratio, summarize } from '../routing/timing.ts';

const { values } = parseArgs({
  options: {
    queries: { type: 'string', default: '500' },
    reference: { type: 'string', default: '30' },
    seed: { type: 'string', default: '1' },
    duration: { type: 'string', default: '15' },
    processes: { type: 'string', default: '1' },
  },
});
const queryCount = Number(values.queries);
const referenceCount = Math.min(Number(values.reference), queryCount);
const next = seededRandom(Number(values.seed));
const CONNECTIONS = 16;
const TARGET_P95_MS = 50;
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Downtown Vancouver and the Mount Pleasant flats, about 4.4 × 3.3 km. */
const WEST = -123.14;
const SOUTH = 49.26;
const COLUMNS = 18;
const ROWS = 13;
const STEP_LNG = 0.0035; // ~254 m
const STEP_LAT = 0.0025; // ~278 m
const stopId = (c: number, r: number) => `S${c}_${r}`;

function gridFeed(): FeedTexts {
  const stops: string[] = [];
  for (let c = 0; c < COLUMNS; c++) for (let r = 0; r < ROWS; r++) stops.push(`${stopId(c, r)},${stopId(c, r)},${(SOUTH + r * STEP_LAT).toFixed(6)},${(WEST + c * STEP_LNG).toFixed(6)}`);
  const lines: [string, string[]][] = [
    ...Array.from({ length: ROWS }, (_, r) => [`EW${r}`, Array.from({ length: COLUMNS }, (_, c) => stopId(c, r))] as [string, string[]]),
    ...Array.from({ length: COLUMNS }, (_, c) => [`NS${c}`, Array.from({ length: ROWS }, (_, r) => stopId(c, r))] as [string, string[]]),
  ];
  const hms = (s: number) => `${String(Math.floor(s / 3600)).padStart(2, '0')}:${String(Math.floor(s / 60) % 60).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
  const trips: string[] = [];
  const times: string[] = [];
  lines.forEach(([route, calls], l) => {
    for (const [direction, order] of [calls, [...calls].reverse()].entries()) {
      for (let start = 6 * 3600 + (l % 10) * 60; start < 22 * 3600; start += 600) {
        const trip = `${route}-${direction}-${start}`;
        trips.push(`${route},DAILY,${trip}`);
        order.forEach((stop, i) => times.push(`${trip},${hms(start + i * 75)},${hms(start + i * 75)},${stop},${i + 1}`));
      }
    }
  });
  return {
    'agency.txt': 'agency_id,agency_name,agency_url,agency_timezone\nG,Grid,https://example.org,America/Vancouver\n',
    'stops.txt': `stop_id,stop_name,stop_lat,stop_lon\n${stops.join('\n')}\n`,
    'routes.txt': `route_id,agency_id,route_short_name,route_type\n${lines.map(([r]) => `${r},G,${r},3`).join('\n')}\n`,
    'trips.txt': `route_id,service_id,trip_id\n${trips.join('\n')}\n`,
    'stop_times.txt': `trip_id,arrival_time,departure_time,stop_id,stop_sequence\n${times.join('\n')}\n`,
    'calendar.txt': 'service_id,monday,tuesday,wednesday,thursday,friday,saturday,sunday,start_date,end_date\nDAILY,1,1,1,1,1,1,1,20260301,20260331\n',
  };
}

const env = await createTestEnv('bench_transit_streets', { LOG_LEVEL: 'warn', RELEASE_POLL_SECONDS: '3600' });
const pool = createPool(env.config.databaseUrl, 2);
const root = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-streets-'));
let server: ReturnType<typeof startCanmap> | null = null;
try {
  log('building the grid transit release and the Vancouver roads release ...');
  const feedDir = await writeFeedDir(path.join(root, 'feed'), gridFeed());
  const deps = { pool, releasesDir: env.config.releasesDir };
  const transit = (await publishRelease(deps, await prepareTransitRelease(
    [{ id: 'grid', source: feedDir, licence: 'bench', attribution: 'synthetic' }],
    { workDir: path.join(root, 'work'), fetchTimeoutMs: 10_000, maxDownloadBytes: 1024 ** 3 },
  ))).release;
  const roadsRelease = (await publishRelease(deps, await prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')))).release;
  const data = await openTransitRelease(transit.path, transit.manifest);
  const roads = await roadsOpener.open(roadsRelease.path, roadsRelease.manifest);

  const base = Date.parse('2026-03-10T06:00:00-07:00') / 1000;
  const point = (): [number, number] => [WEST + next() * (COLUMNS - 1) * STEP_LNG, SOUTH + next() * (ROWS - 1) * STEP_LAT];
  const queries = Array.from({ length: queryCount }, () => ({ from: point(), to: point(), departAt: base + Math.floor(next() * 15 * 3600), maxTransfers: 4 }));

  let started = performance.now();
  planJourneys(data, 'grid', queries[0]!);
  const networkMs = performance.now() - started;
  started = performance.now();
  planJourneys(data, 'grid', queries[0]!, roads);
  const firstStreetMs = performance.now() - started;

  const time = (withRoads: boolean) => queries.map((q) => {
    const t0 = performance.now();
    planJourneys(data, 'grid', q, withRoads ? roads : null);
    return performance.now() - t0;
  });
  time(false);
  time(true);
  const straight = summarize(time(false));
  const streets = summarize(time(true));

  // Every stop's street footpaths, as a release serving for long ends up measuring them (a fresh
  // roads release object: the footpaths are cached per roads release).
  const freshRoads = await roadsOpener.open(roadsRelease.path, roadsRelease.manifest);
  const fresh = transitWalking(data, 'grid', freshRoads)!;
  started = performance.now();
  for (const stop of fresh.network.stops) fresh.footpaths(stop);
  const allFootpathsMs = performance.now() - started;

  const walking = transitWalking(data, 'grid', roads)!;
  let same = 0;
  let longer = 0;
  for (const q of queries.slice(0, referenceCount)) {
    const [first] = planJourneys(data, 'grid', q, roads);
    const reference = referenceEarliestArrival(data, 'grid', q, walking);
    if ((first ?? null) === null ? reference === null : reference !== null && first!.arrival === reference.arrival && first!.transfers === reference.transfers) same++;
    const [straightFirst] = planJourneys(data, 'grid', q);
    if (first && straightFirst && first.arrival > straightFirst.arrival) longer++;
  }

  // ---- over HTTP: canmap serve with both releases enabled ----
  await enableRelease(pool, transit.id, 'bench');
  await enableRelease(pool, roadsRelease.id, 'bench');
  const { key } = await createKey(pool, {});
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = startCanmap(['serve', '--processes', String(values.processes)], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
  const iso = (epoch: number) => new Date(epoch * 1000).toISOString().slice(0, 19) + 'Z';
  const requests = queries.map((q) => ({ method: 'GET' as const, path: `/route?mode=transit&from=${q.from.map((v) => v.toFixed(6)).join(',')}&to=${q.to.map((v) => v.toFixed(6)).join(',')}&depart_at=${iso(q.departAt)}` }));
  // Served once both releases answer.
  const [lng, lat] = queries[0]!.from;
  const probes = [`/transit/stops?near=${lng},${lat}&radius=1000`, `/route?mode=pedestrian&from=${lng},${lat}&to=${queries[0]!.to.join(',')}`];
  for (let waited = 0; ; waited += 250) {
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    if (waited > 120_000) throw new Error(`canmap serve did not serve both releases:\n${server.output()}`);
    const statuses = await Promise.all(probes.map((probe) => fetch(`${url}${probe}&key=${key}`).then(async (res) => (await res.arrayBuffer(), res.status), () => 0)));
    if (statuses.every((status) => status === 200)) break;
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`warm-up 3 s, then ${values.duration} s at ${CONNECTIONS} connections ...`);
  await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds: 3 });
  const r = await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds: Number(values.duration) });
  const answered = [...r.statuses].filter(([status]) => status === 200 || status === 422).reduce((sum, [, n]) => sum + n, 0);
  const verdict = answered === r.requests && r.errors === 0 ? (r.p95 <= TARGET_P95_MS ? 'within' : 'over') : `only ${answered} of ${r.requests} answered 200 or 422`;

  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version}`,
    `network: ${COLUMNS * ROWS} stops on a ~250 m grid over downtown Vancouver, ${COLUMNS + ROWS} lines both ways every 10 min, ${transit.manifest.stats.stop_times} stop_times; roads: pelias-vancouver_canada.osm.pbf (${roads.graph.edgeCount} directed edges)`,
    `queries: ${queries.length} (seed ${values.seed}), from/to uniform over the grid, 06:00–21:00 on 2026-03-10`,
    `first query: ${ms(networkMs)} with the RAPTOR network build; first street query ${ms(firstStreetMs)} (street footpaths are measured per stop on first use);`
      + ` the street footpaths of all ${COLUMNS * ROWS} stops: ${ms(allFootpathsMs)} (${ms(allFootpathsMs / (COLUMNS * ROWS))} per stop)`,
    '',
    '| walks | mean | p50 | p95 | max |',
    '|---|---|---|---|---|',
    `| straight-line | ${ms(straight.mean)} | ${ms(straight.p50)} | ${ms(straight.p95)} | ${ms(straight.max)} |`,
    `| along the streets | ${ms(streets.mean)} | ${ms(streets.p50)} | ${ms(streets.p95)} | ${ms(streets.max)} |`,
    '',
    `streets / straight at p50: ${ratio(streets.p50, straight.p50)}, at p95: ${ratio(streets.p95, straight.p95)}`,
    `street answers equal to the brute-force reference with the same walks: ${same} / ${referenceCount}; arriving later than with straight-line walks: ${longer} / ${referenceCount}`,
    '',
    `over HTTP, canmap serve (${values.processes} process${values.processes === '1' ? '' : 'es'}) with both releases enabled, autocannon in this process on the same cores:`,
    '| GET /route?mode=transit, street walks | connections | req/s | p50 | p95 | p99 | statuses | errors | p95 against 50 ms |',
    '|---|---|---|---|---|---|---|---|---|',
    `| ${values.duration} s over ${queries.length} queries | ${CONNECTIONS} | ${r.rps.toFixed(0)} | ${ms(r.p50)} | ${ms(r.p95)} | ${ms(r.p99)} | ${[...r.statuses].sort(([a], [b]) => a - b).map(([st, n]) => `${st}: ${n}`).join(', ')} | ${r.errors} | ${verdict} |`,
  ].join('\n'));
} finally {
  await server?.stop();
  await pool.end();
  await rm(root, { recursive: true, force: true });
  await env.cleanup();
}
