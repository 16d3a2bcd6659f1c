/**
 * `npm run bench:hardening`: how long a cheap request waits while expensive ones run (issue 28:
 * "≤ 50 ms"). `canmap serve` runs in its own process (one API process, MATRIX_ENABLED=1) on the
 * Vancouver roads release (../shared/data/osm/pelias-vancouver_canada.osm.pbf, published and
 * enabled as the roads job does it), on 127.0.0.1 only. Per kind of expensive request (requests.ts)
 * a fresh server is started; the probe sends the cheap request (default GET /transit/agencies)
 * every 10 ms, first alone for `--idle` seconds, then while 4 of the expensive requests run at once,
 * until they have answered (each aborted after `--timeout` seconds); `--settle` seconds pass after
 * each start before the idle probe. Reported per kind: the worst,
 * p99 and median probe delay (from when the probe was due to its answer) and their ratio to the
 * 50 ms target, and each expensive request's status and duration (/optimize: against its timeout).
 *
 *   npm run bench:hardening [-- --json] [--kinds optimized-route,matrix,...] [--concurrency 4] [--every 10]
 *                              [--timeout 60] [--idle 2] [--settle 5] [--probe /transit/agencies] [--optimize-timeout 1s]
 *                              [--byod-entries 450000] [--byod-tiles 120000] [--isochrone-mode auto]
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { prepareRoadsRelease } from '../../ingest/roads/release.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { publishRelease } from '../../releases/publish.ts';
import { enableRelease } from '../../releases/registry.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { REPO_ROOT, sharedData } from '../../test/support/paths.ts';
import { freePort, startCanmap, type CanmapChild } from '../support/processes.ts';
import { percentile, startProbe, type ProbeResult } from './probe.ts';
import { CORNER_PAIRS, expensiveKinds, KIND_NAMES, type ExpensiveRequest, type Kind, type LngLat } from './requests.ts';

const TARGET_MS = 50;

const { values } = parseArgs({
  options: {
    json: { type: 'boolean', default: false },
    kinds: { type: 'string' },
    concurrency: { type: 'string', default: '4' },
    every: { type: 'string', default: '10' },
    timeout: { type: 'string', default: '60' },
    idle: { type: 'string', default: '2' },
    settle: { type: 'string', default: '5' },
    probe: { type: 'string', default: '/transit/agencies' },
    'optimize-timeout': { type: 'string', default: '1s' },
    'byod-entries': { type: 'string', default: '450000' },
    'byod-tiles': { type: 'string', default: '120000' },
    'isochrone-mode': { type: 'string', default: 'auto' },
  },
});
const int = (name: keyof typeof values, min: number, max: number) => {
  const v = Number(values[name]);
  if (!Number.isInteger(v) || v < min || v > max) throw new Error(`--${name} must be an integer from ${min} to ${max}, got ${values[name]}`);
  return v;
};
const concurrency = int('concurrency', 1, 16);
const everyMs = int('every', 1, 1000);
const timeoutSeconds = int('timeout', 1, 600);
const idleSeconds = int('idle', 0, 60);
const settleSeconds = int('settle', 0, 120);
const log = (line: string) => process.stderr.write(`${line}\n`);

interface ExpensiveResult {
  status: number | string;
  ms: number;
  /** The start of an error answer's body. */
  error?: string;
}

interface KindReport {
  kind: string;
  label: string;
  idleProbe: ProbeResult;
  probe: ProbeResult;
  /** Worst and p99 probe delay over the 50 ms target. */
  worstOverTarget: number;
  p99OverTarget: number;
  requests: ExpensiveResult[];
  requestedTimeoutMs?: number;
  /** Slowest answer over the requested timeout (POST /optimize). */
  slowestOverTimeout?: number;
  error?: string;
}

const env = await createTestEnv('bench_hardening', { MATRIX_ENABLED: '1' });
const pool = createPool(env.config.databaseUrl, 4);
let server: CanmapChild | null = null;
const reports: KindReport[] = [];
const started = performance.now();
try {
  log('publishing and enabling the Vancouver roads release ...');
  const published = await publishRelease({ pool, releasesDir: env.config.releasesDir }, await prepareRoadsRelease(sharedData('osm/pelias-vancouver_canada.osm.pbf')));
  await enableRelease(pool, published.release.id, 'bench hardening');
  const key = (await createKey(pool, { plan: 'growth' })).key;

  let url = '';
  const startServer = async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    server = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
    const [a, b] = CORNER_PAIRS[0]!;
    const deadline = Date.now() + 120_000;
    for (let status = 0; status !== 200 && status !== 422;) {
      if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
      if (Date.now() > deadline) throw new Error(`canmap serve did not answer /route within 120 s:\n${server.output()}`);
      await new Promise((r) => setTimeout(r, 250));
      status = await fetch(`${url}/route?from=${a[0]},${a[1]}&to=${b[0]},${b[1]}&key=${key}`).then((r) => r.status, () => 0);
    }
  };
  // A server that may still be busy with an aborted request is killed, not asked to drain.
  const stopServer = async () => {
    const s = server as CanmapChild | null;
    server = null;
    if (!s || s.child.exitCode !== null || s.child.signalCode !== null) return;
    const exited = new Promise((r) => s.child.once('exit', r));
    s.child.kill('SIGKILL');
    await exited;
  };

  const send = async (r: ExpensiveRequest, auth: string): Promise<ExpensiveResult> => {
    const t = performance.now();
    try {
      const res = await fetch(`${url}${r.path}`, {
        method: r.method,
        headers: { authorization: `Bearer ${auth}`, ...(r.contentType ? { 'content-type': r.contentType } : {}) },
        ...(r.body === undefined ? {} : { body: typeof r.body === 'string' ? r.body : new Uint8Array(r.body) }),
        signal: AbortSignal.timeout(timeoutSeconds * 1000),
      });
      const text = await res.text();
      const ms = performance.now() - t;
      return { status: res.status, ms, ...(res.status >= 400 ? { error: text.slice(0, 200) } : {}) };
    } catch (err) {
      return { status: (err as Error).name === 'TimeoutError' ? 'timeout' : (err as Error).name, ms: performance.now() - t };
    }
  };

  log('starting canmap serve and drawing road positions ...');
  await startServer();
  const lines: LngLat[][] = [];
  for (const [a, b] of CORNER_PAIRS) {
    const res = await fetch(`${url}/route?from=${a[0]},${a[1]}&to=${b[0]},${b[1]}&key=${key}`);
    const body = (await res.json()) as { geometry?: { coordinates: LngLat[] } };
    if (res.status !== 200 || !body.geometry) throw new Error(`/route between corners answered ${res.status}`);
    lines.push(body.geometry.coordinates);
  }
  const only = values.kinds ? new Set(values.kinds.split(',')) : null;
  for (const w of only ?? []) if (!(KIND_NAMES as readonly string[]).includes(w)) throw new Error(`--kinds: unknown kind ${w} (${KIND_NAMES.join(', ')})`);
  const kinds = expensiveKinds(lines, {
    archive: { entries: int('byod-entries', 1, 10_000_000), tiles: int('byod-tiles', 1, 1_000_000), tileBytes: 12 },
    optimizeTimeout: values['optimize-timeout'], isochroneMode: values['isochrone-mode'],
  }, only);

  const probeHeaders = { authorization: `Bearer ${key}` };
  const runKind = async (kind: Kind): Promise<KindReport> => {
    if (!server) await startServer();
    // Past the server's start (worker threads loading the graph) before anything is measured.
    await new Promise((r) => setTimeout(r, settleSeconds * 1000));
    const idle = startProbe(`${url}${values.probe}`, probeHeaders, everyMs);
    await new Promise((r) => setTimeout(r, idleSeconds * 1000));
    const idleProbe = await idle.stop();
    const auths = await Promise.all(Array.from({ length: concurrency }, async () => (kind.request.freshKey ? (await createKey(pool, { plan: 'growth' })).key : key)));
    log(`${kind.name}: ${concurrency} × ${kind.label} ...`);
    const probe = startProbe(`${url}${values.probe}`, probeHeaders, everyMs);
    const requests = await Promise.all(auths.map((auth) => send(kind.request, auth)));
    await new Promise((r) => setTimeout(r, 100));
    const probed = await probe.stop();
    if (requests.some((r) => typeof r.status !== 'number')) await stopServer();
    const slowest = Math.max(...requests.map((r) => r.ms));
    return {
      kind: kind.name, label: kind.label, idleProbe, probe: probed,
      worstOverTarget: probed.worstMs / TARGET_MS, p99OverTarget: probed.p99Ms / TARGET_MS, requests,
      ...(kind.requestedTimeoutMs ? { requestedTimeoutMs: kind.requestedTimeoutMs, slowestOverTimeout: slowest / kind.requestedTimeoutMs } : {}),
    };
  };
  for (const kind of kinds) {
    try {
      reports.push(await runKind(kind));
    } catch (err) {
      reports.push({ kind: kind.name, label: kind.label, error: (err as Error).message } as KindReport);
      await stopServer();
    } finally {
      // Each kind on a fresh server: nothing left running from the previous one.
      await stopServer();
    }
  }
} finally {
  await (server as CanmapChild | null)?.stop();
  await pool.end();
  await env.cleanup();
}

const fmt = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : '-').padStart(9);
const commit = (() => { try { return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT }).toString().trim(); } catch { return 'unknown'; } })();
const dirty = (() => { try { return execFileSync('git', ['status', '--short'], { cwd: REPO_ROOT }).toString().split('\n').filter(Boolean).length; } catch { return -1; } })();
const lines = [
  '',
  `command: node --import tsx ${[path.relative(REPO_ROOT, process.argv[1]!), ...process.argv.slice(2)].join(' ')}`,
  `tree: ${commit} with ${dirty} changed or new files; machine: ${os.availableParallelism()} cores, Node ${process.version}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`,
  `probe: GET ${values.probe} every ${everyMs} ms (open loop); ${concurrency} expensive requests at once per kind; target ${TARGET_MS} ms`,
  '',
  `${'kind'.padEnd(16)} ${'idle worst'.padStart(10)} ${'worst'.padStart(9)} ${'p99'.padStart(9)} ${'p50'.padStart(9)}  ${'worst/50'.padStart(8)}  expensive answers (status ms)`,
  ...reports.map((r) => (r.error
    ? `${r.kind.padEnd(16)} failed: ${r.error.split('\n')[0]}`
    : `${r.kind.padEnd(16)} ${fmt(r.idleProbe.worstMs).padStart(10)} ${fmt(r.probe.worstMs)} ${fmt(r.probe.p99Ms)} ${fmt(r.probe.p50Ms)}  ${r.worstOverTarget.toFixed(1).padStart(8)}  `
      + `${r.requests.map((q) => `${q.status} ${q.ms.toFixed(0)}`).join(', ')}${r.requestedTimeoutMs ? ` (requested ${r.requestedTimeoutMs} ms; slowest ×${r.slowestOverTimeout!.toFixed(2)})` : ''}`)),
  '',
  ...reports.filter((r) => !r.error).map((r) => `${r.kind}: ${r.label}; probe statuses ${JSON.stringify(r.probe.statuses)}, ${r.probe.sent} sent, ${r.probe.skipped} skipped, ${r.probe.unanswered} unanswered`
    + `${r.requests.filter((q) => q.error).slice(0, 1).map((q) => `; e.g. ${q.status}: ${q.error}`).join('')}`),
  `total ${((performance.now() - started) / 1000).toFixed(0)} s`,
];
console.log(lines.join('\n'));
if (values.json) {
  const all = reports.filter((r) => !r.error).map((r) => r.probe.worstMs).sort((a, b) => a - b);
  console.log(JSON.stringify({
    bench: 'hardening/event-loop', targetMs: TARGET_MS, commit, changedFiles: dirty, probe: values.probe, everyMs, concurrency, timeoutSeconds,
    worstOverall: percentile(all, 100), kinds: reports,
  }));
}
