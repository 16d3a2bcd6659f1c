// Road-events benchmark through the full stack: a fake DriveBC on 127.0.0.1 serving N synthetic
// Open511 events (paginated like the real API), `canmap worker` polling it on its 60 s schedule,
// the API (`startServer`) in its own process with Bearer auth. Measures p50/p95/p99 of each
// endpoint at 32 connections, then the time from an upstream change to its visibility in the API.
//
//   node --import tsx bench/road-events/run.ts [--events 5000] [--duration 20] [--connections 32] [--changes 3]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { FakePublisher, open511Page } from '../../test/support/road-events-upstream.ts';
import { seeded, syntheticEvent } from './synthetic.ts';

interface Instance {
  on(event: 'response', fn: (client: unknown, status: number, bytes: number, ms: number) => void): void;
  on(event: 'done', fn: (result: { non2xx: number; errors: number; timeouts: number; duration: number }) => void): void;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (options: object) => Instance;

const TARGETS = { p95Ms: 10, visibleS: 70 };
const HERE = path.dirname(fileURLToPath(import.meta.url));
const CANMAP = path.resolve(HERE, '../../bin/canmap.js');

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '5000' },
    duration: { type: 'string', default: '20' },
    connections: { type: 'string', default: '32' },
    changes: { type: 'string', default: '3' },
  },
});
const count = Number(values.events);
const duration = Number(values.duration);
const connections = Number(values.connections);
const changes = Number(values.changes);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function percentiles(latencies: number[]) {
  const sorted = Float64Array.from(latencies).sort();
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
  return { p50: rank(50), p95: rank(95), p99: rank(99) };
}

// ---- the fake DriveBC ------------------------------------------------------------------------
const versions = new Map<number, number>();
const events = Array.from({ length: count }, (_, i) => syntheticEvent(i));
const upstream = await FakePublisher.start();
upstream.handle('/events', (url) => {
  const limit = Number(url.searchParams.get('limit') ?? 50);
  const offset = Number(url.searchParams.get('offset') ?? 0);
  const more = offset + limit < events.length;
  const next = `/events?format=json&status=ACTIVE&limit=${limit}&offset=${offset + limit}`;
  return { body: open511Page(events.slice(offset, offset + limit), more ? { offset: String(offset), next_url: next } : { offset: String(offset) }) };
});

const env = await createTestEnv('bench_road_events', { LOG_LEVEL: 'silent' });
const childEnv = { ...process.env, ...env.env, OPEN511_URL: upstream.url('/events'), CLOSURES_POLL_SECONDS: '0', ROAD_EVENTS_POLL_SECONDS: '60' };
const children: ChildProcess[] = [];
const pool = createPool(env.config.databaseUrl, 2);
try {
  // ---- the worker, on its real 60 s schedule ---------------------------------------------------
  const worker = spawn(process.execPath, [CANMAP, 'worker'], { env: { ...childEnv, LOG_LEVEL: 'info' }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(worker);
  const pollLines: string[] = [];
  createInterface({ input: worker.stdout! }).on('line', (line) => {
    if (line.includes('road-events:')) pollLines.push(line);
  });
  const loadStarted = performance.now();
  for (;;) {
    const { rows } = await pool.query<{ stored_count: number; took: number }>(
      `SELECT stored_count, extract(epoch FROM last_success_at - last_attempt_at)::float8 AS took FROM road_feed_status WHERE feed = 'events:CA-BC' AND last_success_at IS NOT NULL`,
    );
    if (rows[0]?.stored_count === count) {
      console.log(`${count} synthetic events served by a fake DriveBC in ${Math.ceil(count / 500)} pages; the worker's first scheduled poll stored them (poll took ${rows[0].took.toFixed(2)} s; ${((performance.now() - loadStarted) / 1000).toFixed(1)} s after the worker started)`);
      break;
    }
    if (performance.now() - loadStarted > 180_000) throw new Error(`the worker did not store ${count} events within 180 s:\n${pollLines.join('\n')}`);
    await sleep(200);
  }

  // ---- the API -------------------------------------------------------------------------------
  const api = spawn(process.execPath, ['--import', 'tsx', path.join(HERE, 'api-server.ts')], { env: childEnv, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(api);
  const [line] = (await once(createInterface({ input: api.stdout! }), 'line')) as [string];
  const { url } = JSON.parse(line) as { url: string };
  const { key } = await createKey(pool, { accountId: 'bench', plan: 'growth' });
  const headers = { authorization: `Bearer ${key}` };
  const get = async (p: string) => {
    const res = await fetch(`${url}${p}`, { headers });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { data: { id: string; description: string }[]; meta: { status: string } };
  };
  const first = await get('/incidents?limit=1');
  console.log(`API up; meta.status ${first.meta.status}`);

  // ---- latency -------------------------------------------------------------------------------
  const random = seeded(7);
  const anchor = () => {
    const g = events[Math.floor(random() * events.length)]!.geography as { type: string; coordinates: number[] | number[][] };
    const p = (g.type === 'Point' ? g.coordinates : (g.coordinates as number[][])[0]) as number[];
    return [p[0]! + (random() - 0.5) * 0.2, p[1]! + (random() - 0.5) * 0.2].map((v) => v.toFixed(5));
  };
  const box = (size: number) => {
    const [lon, lat] = anchor().map(Number) as [number, number];
    return [lon - size / 2, lat - size / 4, lon + size / 2, lat + size / 4].map((v) => v.toFixed(4)).join(',');
  };
  const mixes: [string, () => string][] = [
    ['/incidents?near (25 km)', () => `/incidents?near=${anchor().join(',')}`],
    ['/incidents?bbox (1°×0.5°)', () => `/incidents?bbox=${box(1)}`],
    ['/closures?bbox (4°×2°)', () => `/closures?bbox=${box(4)}`],
    ['/road-conditions?near 50 km', () => `/road-conditions?near=${anchor().join(',')}&radius=50000`],
    ['/incidents (no filter, 100)', () => '/incidents'],
  ];
  const run = (nextPath: () => string, seconds: number) =>
    new Promise<{ latencies: number[]; bytes: number; seconds: number; failed: number }>((resolve) => {
      const latencies: number[] = [];
      let bytes = 0;
      const instance = autocannon({ url, connections, duration: seconds, headers, requests: [{ setupRequest: (req: object) => ({ ...req, path: nextPath() }) }] });
      instance.on('response', (_c, _s, b, ms) => {
        latencies.push(ms);
        bytes += b;
      });
      instance.on('done', (r) => resolve({ latencies, bytes, seconds: r.duration, failed: r.non2xx + r.errors + r.timeouts }));
    });
  const results: string[] = [];
  for (const [label, nextPath] of mixes) {
    await run(nextPath, 3); // warm-up
    const r = await run(nextPath, duration);
    const p = percentiles(r.latencies);
    const met = p.p95 <= TARGETS.p95Ms && r.failed === 0;
    results.push(`${label.padEnd(30)}${(r.latencies.length / r.seconds).toFixed(0).padStart(7)}${p.p50.toFixed(1).padStart(8)}${p.p95.toFixed(1).padStart(8)}${p.p99.toFixed(1).padStart(8)}${String(r.failed).padStart(8)}${(r.bytes / Math.max(1, r.latencies.length) / 1024).toFixed(1).padStart(10)}   ${met ? 'met' : 'NOT met'}`);
  }
  console.log(`\nGET road events, full stack with Bearer auth, ${connections} connections, ${duration} s each, loopback, ${os.cpus().length} cores, Node ${process.version}`);
  console.log(`${'endpoint'.padEnd(30)}${'req/s'.padStart(7)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'failed'.padStart(8)}${'KiB/answer'.padStart(10)}   p95 ≤ ${TARGETS.p95Ms} ms`);
  for (const r of results) console.log(r);

  // ---- upstream change → visible in the API -----------------------------------------------------
  console.log(`\nupstream change → visible in the API (worker on its 60 s schedule; changes at random moments; API asked every 250 ms):`);
  const delays: number[] = [];
  for (let k = 0; k < changes; k++) {
    await sleep(random() * 60_000);
    const i = Math.floor(random() * events.length);
    const version = (versions.get(i) ?? 0) + 1;
    versions.set(i, version);
    events[i] = syntheticEvent(i, 42, version);
    const changedAt = performance.now();
    const g = events[i]!.geography as { type: string; coordinates: number[] | number[][] };
    const p = (g.type === 'Point' ? g.coordinates : (g.coordinates as number[][])[0]) as number[];
    const probe = `/incidents?near=${p[0]},${p[1]}&radius=10&limit=500`;
    for (;;) {
      const { data } = await get(probe);
      if (data.some((e) => e.id.endsWith(`SYN-${i}`) && e.description.includes(`(revision ${version})`))) break;
      if (performance.now() - changedAt > 180_000) throw new Error(`change of SYN-${i} not visible after 180 s`);
      await sleep(250);
    }
    const seconds = (performance.now() - changedAt) / 1000;
    delays.push(seconds);
    console.log(`  change ${k + 1}: SYN-${i} visible after ${seconds.toFixed(1)} s`);
  }
  const worst = Math.max(...delays);
  console.log(`worst ${worst.toFixed(1)} s, mean ${(delays.reduce((a, b) => a + b, 0) / delays.length).toFixed(1)} s; target ≤ ${TARGETS.visibleS} s: ${worst <= TARGETS.visibleS ? 'met' : 'NOT met'} (bound by schedule: 60 s interval + poll time + 0.5 s API refresh)`);
  console.log(`poll log of the worker:\n${pollLines.slice(-4).map((l) => `  ${l}`).join('\n')}`);
} finally {
  for (const child of children) {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  }
  await pool.end();
  await upstream.close();
  await env.cleanup();
}
