/**
 * `npm run bench:serve-cost`: what each endpoint family costs the server per answer, beside the
 * authenticated no-op. The demo builds and enables every bundled sample release (`canmap demo`);
 * then `canmap serve` alone serves them, one API process, and autocannon (in this process) loads
 * each family at 16 connections. On a 2-core machine the load generator competes with the API for
 * the cores, so requests per second say as much about the client as the server; the server's CPU
 * time (user + system of its process tree) divided by the answers it gave does not.
 *
 *   npm run bench:serve-cost [-- --seconds 6] [--only noop,tile-large] [--json]
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
import { freePort, startCanmap, treeCpuSeconds } from '../support/processes.ts';
import { reapedChildrenCpuSeconds, selfCpuSeconds } from '../support/process-cpu.ts';
import { ensureWrk, wrkLoad, type WrkResult } from '../support/wrk-load.ts';
import { costRuns } from './requests.ts';
import { writeUploadArchive } from './upload-archive.ts';

const CONNECTIONS = 16;
const { values } = parseArgs({ options: {
  seconds: { type: 'string', default: '6' },
  only: { type: 'string' },
  loader: { type: 'string', default: 'wrk' },
  json: { type: 'boolean', default: false },
} });
if (values.loader !== 'wrk' && values.loader !== 'autocannon') throw new Error(`--loader must be wrk or autocannon, got ${values.loader}`);
if (values.loader === 'wrk') ensureWrk();
const seconds = Number(values.seconds);
if (!(seconds > 0)) throw new Error(`--seconds must be a positive number, got ${values.seconds}`);
const wanted = (name: string) => !values.only || name === 'noop' || values.only.split(',').includes(name);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface RunFigures {
  name: string;
  rps: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  cpu_us_per_answer: number;
  x_noop: number;
  mean_bytes: number;
  /** Answers other than the family's expected status class, and socket errors. */
  unexpected: number;
  loader_cores: number;
}

const env = await createTestEnv('bench_serve_cost', { LOG_LEVEL: 'silent' });
const scratch = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-serve-cost-'));
const pool = createPool(env.config.databaseUrl, 1);
let server: ReturnType<typeof startCanmap> | null = null;
try {
  log('canmap demo: building and enabling every sample release ...');
  const demo = startCanmap(['demo', '--json'], env.env);
  await new Promise<void>((resolve, reject) => {
    const timer = setInterval(() => {
      if (demo.stdout().trimEnd().endsWith('}')) {
        clearInterval(timer);
        resolve();
      } else if (demo.child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`canmap demo exited:\n${demo.output()}`));
      }
    }, 250);
  });
  const releases = (JSON.parse(demo.stdout()) as { releases: Record<string, string> }).releases;
  await demo.stop();
  log(`releases: ${Object.entries(releases).map(([k, v]) => `${k} ${v}`).join(', ')}`);

  const { key } = await createKey(pool, { plan: 'growth' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn', MATRIX_ENABLED: '1' });
  const send = (r: BenchRequest) => fetch(`${url}${r.path}${r.path.includes('?') ? '&' : '?'}key=${key}`, {
    method: r.method, ...(r.body === undefined ? {} : { body: r.body, headers: { 'content-type': 'application/json' } }),
  }).then(async (res) => (await res.arrayBuffer(), res.status), () => 0);
  for (let status = 0; status !== 200;) {
    await new Promise((r) => setTimeout(r, 250));
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    status = await send({ method: 'GET', path: '/tiles/10/161/350' });
  }
  const upload = await fetch(`${url}/byod?name=basemap&key=${key}`, {
    method: 'POST', headers: { 'content-type': 'application/vnd.pmtiles' },
    body: await readFile(await writeUploadArchive(path.join(env.config.releasesDir, 'basemap', releases.basemap!, BASEMAP_ARCHIVE), scratch)),
  });
  if (upload.status !== 201) throw new Error(`POST /byod answered ${upload.status}: ${await upload.text()}`);
  const runs = costRuns(((await upload.json()) as { id: string }).id).filter((r) => wanted(r.name));

  // Untimed: every request of a family answers as expected (a benchmark of error answers says nothing).
  // Requests of a family that answer otherwise (a 204 where the DEM has no contour line) are dropped.
  for (const run of runs) {
    const statuses = await Promise.all(run.requests.map(send));
    const expected = run.name === 'noop' ? 404 : 200;
    run.requests = run.requests.filter((_, i) => statuses[i] === expected);
    if (run.requests.length === 0) throw new Error(`${run.name}: statuses ${statuses.join(', ')}, expected ${expected}`);
    if (run.requests.length < statuses.length) log(`${run.name}: ${statuses.length - run.requests.length} of ${statuses.length} requests dropped (statuses ${statuses.join(', ')})`);
    for (let i = 0; i < 20; i++) await send(run.requests[i % run.requests.length]!);
  }

  const pid = server.child.pid!;
  const withKey = (r: BenchRequest): BenchRequest => ({ ...r, path: `${r.path}${r.path.includes('?') ? '&' : '?'}key=${key}` });
  const load = async (requests: BenchRequest[]): Promise<WrkResult> => {
    if (values.loader === 'wrk') return wrkLoad(requests.map(withKey), { url, connections: CONNECTIONS, seconds });
    const r = await loadRequests(requests, { url, key, connections: CONNECTIONS, seconds });
    const fine = [...r.statuses].filter(([s]) => s < 400).reduce((n, [, c]) => n + c, 0);
    return { ...r, non2xx3xx: r.requests - fine, socketErrors: r.errors };
  };
  const idleStart = treeCpuSeconds(pid);
  await new Promise((r) => setTimeout(r, 2000));
  const idleCoresPerSecond = (treeCpuSeconds(pid) - idleStart) / 2;

  const figures: RunFigures[] = [];
  for (const run of runs) {
    log(`load: ${run.label} at ${CONNECTIONS} connections for ${seconds} s ...`);
    const loaderCpu = () => selfCpuSeconds() + reapedChildrenCpuSeconds();
    const [server0, loader0] = [treeCpuSeconds(pid), loaderCpu()];
    const result = await load(run.requests);
    const serverCpu = treeCpuSeconds(pid) - server0 - idleCoresPerSecond * seconds;
    const cpuUs = (serverCpu / Math.max(1, result.requests)) * 1e6;
    figures.push({
      name: run.name, rps: result.rps, p50_ms: result.p50, p95_ms: result.p95, p99_ms: result.p99,
      cpu_us_per_answer: cpuUs, x_noop: cpuUs / (figures[0]?.cpu_us_per_answer ?? cpuUs), mean_bytes: result.meanBytes,
      unexpected: (run.name === 'noop' ? result.requests - result.non2xx3xx : result.non2xx3xx) + result.socketErrors,
      loader_cores: (loaderCpu() - loader0) / seconds,
    });
  }

  const rows = figures.map((f) => {
    const label = runs.find((r) => r.name === f.name)!.label;
    const bytes = f.mean_bytes >= 1024 ? `${(f.mean_bytes / 1024).toFixed(1)} kB` : `${f.mean_bytes.toFixed(0)} B`;
    return `| ${label} | ${bytes} | ${f.rps.toFixed(0)} | ${f.p50_ms} | ${f.p95_ms} | ${f.p99_ms} | ${f.cpu_us_per_answer.toFixed(0)} µs | ${f.x_noop.toFixed(2)} | ${f.loader_cores.toFixed(2)} | ${f.unexpected} |`;
  });
  const machine = `${os.cpus().length} cores ${os.cpus()[0]?.model ?? ''}, Node ${process.version}, load ${os.loadavg()[0]!.toFixed(2)}`;
  console.log([
    '',
    `Server CPU per answer, ${CONNECTIONS} connections, ${seconds} s a run, one API process, loader ${values.loader} (${machine}; API idle ${(idleCoresPerSecond * 1e3).toFixed(1)} ms CPU/s, subtracted)`,
    '',
    '| request | bytes read per answer | req/s | p50 ms | p95 ms | p99 ms | server CPU per answer | × no-op | loader cores | unexpected answers |',
    '|---|---|---|---|---|---|---|---|---|---|',
    ...rows,
  ].join('\n'));
  if (values.json) console.log(JSON.stringify({ machine, connections: CONNECTIONS, seconds, runs: figures }));
} finally {
  await server?.stop();
  await pool.end();
  await env.cleanup();
  await rm(scratch, { recursive: true, force: true });
}
