// Transit HTTP benchmark: departures and nearby stops through the full API stack (auth on) over a
// release built from a feed scaled to ≥ 5 M stop_times, 32 connections, 30 s each, loopback.
//
//   node --import tsx bench/transit/http.ts [--stop-times 5000000] [--duration 30] [--connections 32]
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { access, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { prepareTransitRelease } from '../../ingest/transit/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { DEFAULT_SOURCE_FEED, defaultScaledFeedDir, generateScaledFeed } from './generate.ts';
import { latencySummary, type LatencySummary } from './http-latency.ts';

interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'done', fn: (result: { non2xx: number; errors: number; timeouts: number; duration: number }) => void): void;
}
type Autocannon = (options: object) => Instance;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const TARGETS = { p95Ms: 15, rps: 1500 };

const { values } = parseArgs({
  options: {
    'stop-times': { type: 'string', default: '5000000' },
    duration: { type: 'string', default: '30' },
    connections: { type: 'string', default: '32' },
  },
});
const stopTimes = Number(values['stop-times']);
const duration = Number(values.duration);
const connections = Number(values.connections);

const feedDir = defaultScaledFeedDir(stopTimes);
if (!(await access(path.join(feedDir, 'stop_times.txt')).then(() => true, () => false))) {
  console.log(`generating ${feedDir} ...`);
  await generateScaledFeed({ feed: DEFAULT_SOURCE_FEED, stopTimes, out: feedDir });
}

const env = await createTestEnv('bench_transit_http', { LOG_LEVEL: 'silent', RELEASE_POLL_SECONDS: '3600' });
const workDir = await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-transit-'));
let child: ReturnType<typeof spawn> | undefined;
try {
  const pool = createPool(env.config.databaseUrl, 2);
  let started = performance.now();
  const spec = await prepareTransitRelease(
    [{ id: 'trimet', source: feedDir, licence: 'bench', attribution: 'TriMet (scaled copy)' }],
    { workDir, fetchTimeoutMs: 60_000, maxDownloadBytes: 4 * 1024 ** 3 },
  );
  const { release } = await publishRelease({ pool, releasesDir: env.config.releasesDir }, spec);
  await enableRelease(pool, release.id, 'bench');
  console.log(`release ${release.id}: ${release.manifest.stats.stop_times} stop_times, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const { key } = await createKey(pool, { accountId: 'bench', plan: 'growth' });
  await pool.end();

  started = performance.now();
  child = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'http-server.ts')], {
    env: { ...process.env, ...env.env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  const headers = { authorization: `Bearer ${key}` };
  const get = async (p: string) => {
    const res = await fetch(`${url}${p}`, { headers });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: unknown };
  };
  console.log(`API up with the release loaded in ${((performance.now() - started) / 1000).toFixed(1)} s (server start + release open)`);

  // What to ask for: every stop and station, on random service days and times.
  const coverage = (await get('/coverage.json')) as unknown as { feeds: { first_service_date: string; last_service_date: string }[] };
  const firstDay = Date.parse(`${coverage.feeds[0]!.first_service_date}T00:00:00Z`);
  const lastDay = Date.parse(`${coverage.feeds[0]!.last_service_date}T00:00:00Z`);
  const stops = ((await get('/transit/stops?near=-122.6,45.5&radius=10000&limit=100')).data as { id: string; lon: number; lat: number }[]);
  if (stops.length < 20) throw new Error(`only ${stops.length} stops found near Portland`);
  let seed = 42;
  const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
  const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;
  const departuresPath = () => {
    const day = firstDay + Math.floor(random() * ((lastDay - firstDay) / 86_400_000 + 1)) * 86_400_000;
    const at = new Date(day + (13 + random() * 16) * 3_600_000).toISOString().slice(0, 19) + 'Z'; // 05:00–21:00 Pacific
    return `/transit/stops/${encodeURIComponent(pick(stops).id)}/departures?at=${at}`;
  };
  const nearbyPath = () => {
    const stop = pick(stops);
    return `/transit/stops?near=${(stop.lon + (random() - 0.5) * 0.02).toFixed(5)},${(stop.lat + (random() - 0.5) * 0.014).toFixed(5)}`;
  };

  const sample = (await get(departuresPath().replace(/\?at=.*/, '?at=2021-11-10T18:00:00Z'))).data as unknown[];
  console.log(`sample departures answer: ${sample.length} departures (limit 50, window 60 min)`);

  const run = (nextPath: () => string, seconds: number) =>
    new Promise<{ latencies: number[]; seconds: number; failed: number }>((resolve) => {
      const latencies: number[] = [];
      const instance = autocannon({
        url, connections, duration: seconds, headers,
        requests: [{ setupRequest: (req: object) => ({ ...req, path: nextPath() }) }],
      });
      instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
      instance.on('done', (r) => resolve({ latencies, seconds: r.duration, failed: r.non2xx + r.errors + r.timeouts }));
    });

  const results: { label: string; summary: LatencySummary; failed: number }[] = [];
  for (const [label, nextPath] of [['departures', departuresPath], ['nearby stops', nearbyPath]] as const) {
    await run(nextPath, 3); // warm-up: JIT, key cache
    const r = await run(nextPath, duration);
    results.push({ label, summary: latencySummary(r.latencies, r.seconds), failed: r.failed });
  }

  console.log(`\nGET transit, full stack with Bearer auth, ${connections} connections, ${duration} s each, loopback, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(`${'endpoint'.padEnd(14)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'failed'.padStart(8)}   target`);
  for (const { label, summary: s, failed } of results) {
    const ok = s.p95 <= TARGETS.p95Ms && s.rps >= TARGETS.rps && failed === 0;
    console.log(`${label.padEnd(14)}${s.rps.toFixed(0).padStart(8)}${s.p50.toFixed(1).padStart(8)}${s.p95.toFixed(1).padStart(8)}${s.p99.toFixed(1).padStart(8)}${String(failed).padStart(8)}   p95 ≤ ${TARGETS.p95Ms} ms, ≥ ${TARGETS.rps} req/s: ${ok ? 'met' : 'NOT met'}`);
  }
} finally {
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
  await rm(workDir, { recursive: true, force: true });
  await env.cleanup();
}
