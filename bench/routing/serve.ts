/**
 * `npm run bench:routing:serve`: /route, /isochrone and /matrix through the full stack (key auth,
 * rate limit, metering, closure lookup) of `canmap serve` in its own process, on a roads release
 * of the synthetic national graph (`--nodes`, default 5,000,000), published and enabled as the
 * roads job does it, with MATRIX_ENABLED=1. autocannon (in this process, on the same cores) keeps
 * 16 connections busy for `--duration` seconds per run over pre-drawn requests (serve-requests.ts):
 * short urban routes, long national routes, both interleaved, 30-minute auto isochrones and
 * 10×10 matrices of points within 100 km of each other. Beside each: the p95 target.
 *
 *   npm run bench:routing:serve [-- --nodes 5000000] [--duration 20] [--seed 1] [--routes 3000] [--isochrones 500] [--matrices 300]
 *                                  [--only short,long,mixed,isochrone,matrix] [--single] [--cpu-prof] [--json]
 *                                  [--geometry-format geojson|polyline6]
 * --single adds a run at 1 connection per kind (the time of one answer, without queueing behind
 * 15 others); --cpu-prof runs the API under node --cpu-prof and prints where its CPU time went;
 * --json prints, after the table, one JSON object {"runs":[{name, rps, p50_ms, p95_ms, p99_ms,
 * cpu_us_per_answer}]} (1-connection runs named e.g. "short@1"); --geometry-format polyline6 asks the
 * routes (short, long, mixed) for the encoded line instead of the default GeoJSON one (said in the output).
 */
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { REPO_ROOT } from '../../test/support/paths.ts';
import { summarizeCpuProfile, type CpuProfile } from '../geocoding/cpu-profile.ts';
import { freePort, startCanmap, treeCpuSeconds, treeMemoryOf } from '../support/processes.ts';
import { selfCpuSeconds } from '../support/process-cpu.ts';
import { loadRequests } from './load-requests.ts';
import { benchRequests, ISOCHRONE_MINUTES, MATRIX_RADIUS_KM, type BenchRequest } from './serve-requests.ts';
import { loadJson, loadTable, otherStatuses, type LoadRun } from './serve-report.ts';
import { syntheticRoadGraph } from '../../test/support/routing/synthetic-graph.ts';
import { publishSyntheticRoads } from './synthetic-release.ts';

const CONNECTIONS = 16;
const TARGET_MS = { route: 20, isochrone: 300, matrix: 50 };

const { values } = parseArgs({
  options: {
    nodes: { type: 'string', default: '5000000' },
    seed: { type: 'string', default: '1' },
    duration: { type: 'string', default: '20' },
    routes: { type: 'string', default: '3000' },
    isochrones: { type: 'string', default: '500' },
    matrices: { type: 'string', default: '300' },
    only: { type: 'string', default: 'short,long,mixed,isochrone,matrix' },
    'cpu-prof': { type: 'boolean', default: false },
    single: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'geometry-format': { type: 'string', default: 'geojson' },
    processes: { type: 'string', default: '2' },
  },
});
const int = (name: keyof typeof values, min: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min) throw new Error(`--${name} must be an integer ≥ ${min}, got ${values[name]}`);
  return v;
};
const nodes = int('nodes', 1000);
const apiProcesses = int('processes', 1);
const seed = int('seed', 0);
const seconds = int('duration', 1);
const counts = { routes: int('routes', 1), isochrones: int('isochrones', 1), matrices: int('matrices', 1) };
const only = new Set(values.only.split(','));
const geometryFormat = values['geometry-format'];
if (geometryFormat !== 'geojson' && geometryFormat !== 'polyline6') throw new Error(`--geometry-format must be geojson or polyline6, got ${geometryFormat}`);
const log = (line: string) => process.stderr.write(`${line}\n`);

const env = await createTestEnv('bench_routing_serve', { MATRIX_ENABLED: '1' });
const pool = createPool(env.config.databaseUrl, 2);
let server: ReturnType<typeof startCanmap> | null = null;
const profileDir = values['cpu-prof'] ? await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-routing-prof-')) : null;
try {
  log(`generating the synthetic graph (${nodes.toLocaleString('en-CA')} nodes) and drawing requests ...`);
  let arrays: GraphArrays | null = syntheticRoadGraph({ nodes, seed });
  const graphCounts = { nodes: arrays.nodeLng.length, edges: arrays.edgeTarget.length };
  const requests = benchRequests(arrays, counts, seed);
  if (geometryFormat !== 'geojson') {
    for (const list of [requests.shortRoutes, requests.longRoutes]) list.forEach((r) => (r.path += `&geometry_format=${geometryFormat}`));
  }
  log('publishing and enabling the roads release (contraction included) ...');
  const published = await publishSyntheticRoads(pool, env.config.releasesDir, arrays, { nodes, seed });
  arrays = null;
  const key = (await createKey(pool, {})).key;

  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const nodeArgs = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  server = startCanmap(['serve', '--processes', String(apiProcesses)], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' }, nodeArgs);
  const probe = `${url}${requests.shortRoutes[0]!.path}&key=${key}`;
  for (let status = 0; status !== 200 && status !== 422;) {
    await new Promise((r) => setTimeout(r, 250));
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    status = await fetch(probe).then((r) => r.status, () => 0);
  }
  const startupSeconds = (performance.now() - started) / 1000;
  log(`canmap serve answered routes after ${startupSeconds.toFixed(1)} s`);

  // Untimed: each kind answers 200 at least once (a benchmark of error answers says nothing).
  const send = (r: BenchRequest) => fetch(`${url}${r.path}${r.path.includes('?') ? '&' : '?'}key=${key}`, {
    method: r.method, ...(r.body === undefined ? {} : { body: r.body, headers: { 'content-type': 'application/json' } }),
  }).then(async (res) => (await res.arrayBuffer(), res.status));
  const sets = { short: requests.shortRoutes, long: requests.longRoutes, isochrone: requests.isochrones, matrix: requests.matrices };
  for (const [name, list] of Object.entries(sets)) {
    const statuses = await Promise.all(list.slice(0, 10).map(send));
    if (!statuses.includes(200)) throw new Error(`${name}: no 200 among the first 10 requests (${statuses.join(', ')})`);
  }

  const serverPid = server.child.pid!;
  const load = async (name: string, label: string, list: readonly BenchRequest[], targetMs: number, connections: number): Promise<LoadRun> => {
    log(`load: ${label} (${list.length} requests) at ${connections} connection(s) for ${seconds} s ...`);
    const [server0, loader0] = [treeCpuSeconds(serverPid), selfCpuSeconds()];
    const result = await loadRequests(list, { url, key, connections, seconds });
    return { name, label, connections, result, targetMs, serverCpu: treeCpuSeconds(serverPid) - server0, loaderCpu: selfCpuSeconds() - loader0 };
  };
  const routeSuffix = geometryFormat === 'geojson' ? '' : `, geometry_format=${geometryFormat}`;
  const mixed = requests.shortRoutes.flatMap((r, i) => [r, requests.longRoutes[i]!]);
  const plan: [string, string, readonly BenchRequest[], number][] = [
    ['short', `GET /route, short (urban)${routeSuffix}`, requests.shortRoutes, TARGET_MS.route],
    ['long', `GET /route, long (national)${routeSuffix}`, requests.longRoutes, TARGET_MS.route],
    ['mixed', `GET /route, short and long alternating${routeSuffix}`, mixed, TARGET_MS.route],
    ['isochrone', `GET /isochrone minutes=${ISOCHRONE_MINUTES} auto`, requests.isochrones, TARGET_MS.isochrone],
    ['matrix', 'POST /matrix 10×10 auto', requests.matrices, TARGET_MS.matrix],
  ];
  const runs: LoadRun[] = [];
  for (const [name, label, list, target] of plan) {
    if (!only.has(name)) continue;
    runs.push(await load(name, label, list, target, CONNECTIONS));
    if (values.single) runs.push(await load(name, label, list, target, 1));
  }
  const memory = treeMemoryOf(serverPid);
  let profile: string[] = [];
  if (profileDir) {
    await server.stop();
    // One profile per process and per worker thread: the three busiest (API processes and routing workers).
    const files = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
    const profiles = await Promise.all(files.map(async (f) => ({ f, p: JSON.parse(await readFile(path.join(profileDir, f), 'utf8')) as CpuProfile })));
    const busy = ({ p }: { p: CpuProfile }) => p.nodes.reduce((s, n) => s + (n.callFrame.functionName === '(idle)' ? 0 : n.hitCount ?? 0), 0);
    profiles.sort((x, y) => busy(y) - busy(x));
    profile = profiles.length === 0 ? ['', 'no profile written'] : profiles.slice(0, 3).flatMap(({ f, p }) => [
      '', `CPU profile ${f} (one of ${profiles.length}: processes and threads, startup included):`, summarizeCpuProfile(p, 30)]);
  }

  const km = (m: number) => `${(m / 1000).toFixed(0)} km`;
  const odd = otherStatuses(runs);
  console.log([
    '',
    `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
    `machine: ${os.availableParallelism()} cores (${os.cpus()[0]?.model.trim() ?? 'unknown CPU'}), ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB; Node ${process.version};`
      + ` load average at the end ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}; ${seconds} s per run; autocannon in this process on the same cores`,
    `release: synthetic graph seed ${seed}, ${graphCounts.nodes.toLocaleString('en-CA')} nodes, ${graphCounts.edges.toLocaleString('en-CA')} directed edges,`
      + ` ${published.release.id} (generated, contracted, published in ${published.seconds.toFixed(0)} s); canmap serve answered after ${startupSeconds.toFixed(1)} s;`
      + ` its RSS after the runs ${(memory.rss / 2 ** 30).toFixed(2)} GiB (peak ${(memory.hwm / 2 ** 30).toFixed(2)} GiB)`,
    `requests: ${counts.routes} short routes (mean ${km(requests.shortMeanMetres)} straight), ${counts.routes} long (mean ${km(requests.longMeanMetres)}),`
      + ` ${counts.isochrones} isochrones, ${counts.matrices} matrices (20 points within ${MATRIX_RADIUS_KM} km of a node; 422 when a route exceeds MATRIX_MAX_KM=250);`
      + ` routes with geometry_format=${geometryFormat}${geometryFormat === 'geojson' ? ' (the default answer)' : ' (the encoded-line option, not the default answer)'}`,
    '',
    ...loadTable(runs, seconds),
    ...(odd.length ? ['', 'other answers:', ...odd] : []),
    ...profile,
  ].join('\n'));
  if (values.json) console.log(loadJson(runs, CONNECTIONS));
} finally {
  await server?.stop();
  if (profileDir) await rm(profileDir, { recursive: true, force: true });
  await pool.end();
  await env.cleanup();
}
