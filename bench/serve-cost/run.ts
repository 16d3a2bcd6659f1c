/**
 * `npm run bench:serve-cost`: what each endpoint family costs the server per answer, beside the
 * authenticated no-op, on the demo's releases served by `canmap serve` (one API process). On a
 * 2-core machine the load generator competes with the API for the cores, so requests per second
 * say as much about the client as the server; the server's CPU time (user + system of its
 * process tree, its idle rate subtracted) divided by the answers it gave does not.
 *
 * wrk loads each family at 16 connections (autocannon with --loader autocannon: it decodes every
 * body into a string, so with binary answers it, not the server, is the bottleneck). --uncached
 * also runs every family of stored tiles on a second API process with TILE_CACHE_MB=0 (each tile
 * read from its archive file per request, as before the tile cache), each right after the cached
 * run of the same family.
 *
 *   npm run bench:serve-cost [-- --seconds 6] [--only tile-large,glyphs] [--uncached] [--loader wrk|autocannon] [--json]
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { BASEMAP_ARCHIVE } from '../../schemas/basemap-release.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { loadRequests } from '../routing/load-requests.ts';
import type { BenchRequest } from '../routing/serve-requests.ts';
import { treeCpuSeconds } from '../support/processes.ts';
import { reapedChildrenCpuSeconds, selfCpuSeconds } from '../support/process-cpu.ts';
import { ensureWrk, wrkLoad, type WrkResult } from '../support/wrk-load.ts';
import { buildDemoReleases, startServing, type ServingApi } from './demo-stack.ts';
import { costRuns, STORED_TILES, type CostRun } from './requests.ts';
import { costTable, type RunFigures } from './report.ts';
import { writeUploadArchive } from './upload-archive.ts';

const CONNECTIONS = 16;
const { values } = parseArgs({ options: {
  seconds: { type: 'string', default: '6' },
  only: { type: 'string' },
  uncached: { type: 'boolean', default: false },
  loader: { type: 'string', default: 'wrk' },
  json: { type: 'boolean', default: false },
} });
const seconds = Number(values.seconds);
if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, got ${values.seconds}`);
if (values.loader !== 'wrk' && values.loader !== 'autocannon') throw new Error(`--loader must be wrk or autocannon, got ${values.loader}`);
if (values.loader === 'wrk') ensureWrk();
const wanted = (name: string) => !values.only || name === 'noop' || values.only.split(',').includes(name);
const log = (line: string) => process.stderr.write(`${line}\n`);
const PROBE: BenchRequest = { method: 'GET', path: '/tiles/10/161/350' };

const env = await createTestEnv('bench_serve_cost', { LOG_LEVEL: 'silent' });
const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-serve-cost-'));
const pool = createPool(env.config.databaseUrl, 1);
const servers: ServingApi[] = [];
try {
  log('canmap demo: building and enabling every sample release ...');
  const releases = await buildDemoReleases(env);
  log(`releases: ${Object.entries(releases).map(([k, v]) => `${k} ${v}`).join(', ')}`);
  const { key } = await createKey(pool, { plan: 'growth' });
  const api = await startServing(env, key, { MATRIX_ENABLED: '1' }, PROBE);
  servers.push(api);
  const uncached = values.uncached ? await startServing(env, key, { MATRIX_ENABLED: '1', TILE_CACHE_MB: '0' }, PROBE) : null;
  if (uncached) servers.push(uncached);

  const upload = await fetch(`${api.url}/byod?name=downtown&key=${key}`, {
    method: 'POST', headers: { 'content-type': 'application/vnd.pmtiles' },
    body: await readFile(await writeUploadArchive(path.join(env.config.releasesDir, 'basemap', releases.basemap!, BASEMAP_ARCHIVE), scratch)),
  });
  if (upload.status !== 201) throw new Error(`POST /byod answered ${upload.status}: ${await upload.text()}`);
  const runs = costRuns(((await upload.json()) as { id: string }).id).filter((r) => wanted(r.name));

  // Untimed: every request of a family answers as expected (a benchmark of error answers says
  // nothing); those that answer otherwise (a 204 where the DEM draws no contour) are dropped.
  for (const run of runs) {
    const statuses = await Promise.all(run.requests.map(api.send));
    const expected = run.name === 'noop' ? 404 : 200;
    run.requests = run.requests.filter((_, i) => statuses[i] === expected);
    if (run.requests.length === 0) throw new Error(`${run.name}: statuses ${statuses.join(', ')}, expected ${expected}`);
    if (run.requests.length < statuses.length) log(`${run.name}: ${statuses.length - run.requests.length} of ${statuses.length} requests dropped (statuses ${statuses.join(', ')})`);
    for (const server of servers) for (let i = 0; i < 20; i++) await server.send(run.requests[i % run.requests.length]!);
  }

  const withKey = (r: BenchRequest): BenchRequest => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}key=${key}` });
  const load = async (url: string, requests: BenchRequest[]): Promise<WrkResult> => {
    if (values.loader === 'wrk') return wrkLoad(requests.map(withKey), { url, connections: CONNECTIONS, seconds });
    const r = await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds });
    const fine = [...r.statuses].filter(([s]) => s < 400).reduce((n, [, c]) => n + c, 0);
    return { ...r, non2xx3xx: r.requests - fine, socketErrors: r.errors };
  };
  const idle = new Map<number, number>();
  const idleStart = servers.map((s) => treeCpuSeconds(s.pid));
  await new Promise((r) => setTimeout(r, 2000));
  servers.forEach((s, i) => idle.set(s.pid, (treeCpuSeconds(s.pid) - idleStart[i]!) / 2));

  const figures: RunFigures[] = [];
  const measure = async (server: ServingApi, run: CostRun, name: string) => {
    log(`load: ${name} at ${CONNECTIONS} connections for ${seconds} s ...`);
    const loaderCpu = () => selfCpuSeconds() + reapedChildrenCpuSeconds();
    const [server0, loader0] = [treeCpuSeconds(server.pid), loaderCpu()];
    const result = await load(server.url, run.requests);
    const serverCpu = treeCpuSeconds(server.pid) - server0 - idle.get(server.pid)! * seconds;
    const cpuUs = (serverCpu / Math.max(1, result.requests)) * 1e6;
    figures.push({
      name, label: run.label, rps: result.rps, p50_ms: result.p50, p95_ms: result.p95, p99_ms: result.p99,
      cpu_us_per_answer: cpuUs, x_noop: cpuUs / (figures[0]?.cpu_us_per_answer ?? cpuUs), mean_bytes: result.meanBytes,
      unexpected: (run.name === 'noop' ? result.requests - result.non2xx3xx : result.non2xx3xx) + result.socketErrors,
      loader_cores: (loaderCpu() - loader0) / seconds,
    });
  };
  for (const run of runs) {
    await measure(api, run, run.name);
    if (uncached && STORED_TILES.has(run.name)) await measure(uncached, run, `${run.name}-uncached`);
  }

  const machine = `${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}`;
  const idleMs = [...idle.values()].map((c) => (c * 1e3).toFixed(1)).join(' / ');
  console.log(`\nServer CPU per answer, ${CONNECTIONS} connections, ${seconds} s a run, one API process, loader ${values.loader} (${machine}; API idle ${idleMs} ms CPU/s, subtracted)\n`);
  console.log(costTable(figures));
  if (values.json) console.log(JSON.stringify({ machine, connections: CONNECTIONS, seconds, loader: values.loader, runs: figures }));
} finally {
  await Promise.allSettled(servers.map((s) => s.stop()));
  await pool.end();
  await env.cleanup();
  await rm(scratch, { recursive: true, force: true });
}
