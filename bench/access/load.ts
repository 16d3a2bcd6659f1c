// The access load test: two `canmap serve` processes sharing Postgres and Redis at the spec's rate
// limit (1,000 requests per 60 s per key), 50 keys driven by autocannon for 60 s — most under their
// limit, some from a dev origin, some from an origin their key does not allow, some far over their
// limit — while one process is SIGKILLed and restarted. Afterwards, per key: usage in Postgres must
// equal the metered answers autocannon received, and the 429s must be what the limiter's rule gives.
// Run: npm run bench:access:load [-- --seconds 60 --kill-at 20]
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import os from 'node:os';
import { parseArgs } from 'node:util';
import { createKey, type CreatedKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { repoPath } from '../../test/support/paths.ts';
import { freePort } from '../../test/support/free-port.ts';

interface Result {
  statusCodeStats: Record<string, { count: number }>;
  errors: number;
  latency: { p50: number; p99: number };
}
type Autocannon = (options: Record<string, unknown>) => Promise<Result>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const { values } = parseArgs({ options: { seconds: { type: 'string', default: '60' }, 'kill-at': { type: 'string', default: '20' } } });
const SECONDS = Number(values.seconds);
const KILL_AT_S = Number(values['kill-at']);
const LIMIT = 1000;
const DOOR = new Set(['401', '403', '429']);
const PATHS = ['/.well-known/api-catalog', '/transit/agencies', '/geocode/search?q=main', '/no/such/path'].map((path) => ({ method: 'GET', path }));

type Group = 'steady' | 'dev origin' | 'origin refused' | 'over limit';
// Steady keys stay under the limit (15/s = 900 per minute); over-limit keys send 300/s.
const GROUPS: { group: Group; keys: number; rate: number; connections: number; headers: Record<string, string> }[] = [
  { group: 'steady', keys: 38, rate: 15, connections: 1, headers: {} },
  { group: 'dev origin', keys: 5, rate: 15, connections: 1, headers: { origin: 'http://localhost:5173' } },
  { group: 'origin refused', keys: 2, rate: 15, connections: 1, headers: { origin: 'https://elsewhere.example' } },
  { group: 'over limit', keys: 5, rate: 300, connections: 2, headers: {} },
];


async function serve(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [repoPath('bin/canmap.js'), 'serve'], {
    env: { ...process.env, ...env, PORT: String(port), LOG_LEVEL: 'info' },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let text = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      text += d.toString();
      if (!text.includes('canmap API ready')) return;
      child.stdout!.off('data', onData);
      child.stdout!.resume(); // keep draining the request log, or the server blocks on it
      resolve();
    };
    child.stdout!.on('data', onData);
    child.once('exit', () => reject(new Error(`canmap serve exited before it was ready:\n${text}`)));
  });
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  await once(child, 'exit');
}

const env = await createTestEnv('bench_access_load', { RATE_LIMIT_PER_MINUTE: String(LIMIT), LOG_LEVEL: 'silent' });
const pool = createPool(env.config.databaseUrl, 2);
const servers: ChildProcess[] = [];
try {
  const keys: { key: CreatedKey; group: (typeof GROUPS)[number]; target: number }[] = [];
  for (const group of GROUPS) {
    for (let i = 0; i < group.keys; i += 1) {
      const origins = group.group === 'origin refused' ? ['https://maps.example.ca'] : [];
      keys.push({ key: await createKey(pool, { accountId: `load-${keys.length % 10}`, plan: 'growth', origins }), group, target: keys.length % 2 });
    }
  }
  const ports = [await freePort(), await freePort()];
  for (const port of ports) servers.push(await serve(env.env, port));
  console.log(`access load: ${keys.length} keys, 2 API processes (ports ${ports.join(', ')}), limit ${LIMIT} per 60 s per key, ${SECONDS} s; ` +
    `SIGKILL of the first process at ${KILL_AT_S} s, restarted on its port; ${os.cpus().length} cores, Node ${process.version}`);

  const started = performance.now();
  const runs = keys.map(({ key, group, target }) => autocannon({
    url: `http://127.0.0.1:${ports[target]}`,
    requests: PATHS,
    headers: { authorization: `Bearer ${key.key}`, ...group.headers },
    connections: group.connections,
    overallRate: group.rate,
    // A number of requests, not a duration: a run that stops on time drops its requests in
    // flight, whose answers the server sent (and counted) but autocannon never reads.
    amount: group.rate * SECONDS,
    timeout: 5,
  }));
  await new Promise((r) => setTimeout(r, KILL_AT_S * 1000));
  servers[0]!.kill('SIGKILL');
  await once(servers[0]!, 'exit');
  const killedAt = performance.now();
  servers[0] = await serve(env.env, ports[0]!);
  const downMs = performance.now() - killedAt;
  const results = await Promise.all(runs);
  const elapsedS = (performance.now() - started) / 1000;
  for (const server of servers) await stop(server);

  const { rows } = await pool.query<{ key_id: string; calls: string }>('SELECT key_id, sum(calls) AS calls FROM usage_daily GROUP BY key_id');
  const counted = new Map(rows.map((r) => [r.key_id, Number(r.calls)]));
  const byStatus = new Map<string, number>();
  let answered = 0;
  let errors = 0;
  let exact = 0;
  const mismatches: string[] = [];
  const limiterProblems: string[] = [];
  for (const [i, { key, group }] of keys.entries()) {
    const r = results[i]!;
    errors += r.errors;
    let metered = 0;
    for (const [status, { count }] of Object.entries(r.statusCodeStats)) {
      byStatus.set(status, (byStatus.get(status) ?? 0) + count);
      answered += count;
      if (!DOOR.has(status)) metered += count;
    }
    const usage = counted.get(key.id) ?? 0;
    if (usage === metered) exact += 1;
    else mismatches.push(`${key.id} (${group.group}): ${metered} metered answers received, ${usage} counted`);
    const limited = r.statusCodeStats['429']?.count ?? 0;
    const admitted = Object.entries(r.statusCodeStats).filter(([s]) => s !== '429').reduce((n, [, { count }]) => n + count, 0);
    // The rule: a request is admitted while fewer than 1,000 were admitted in the 60 s before it.
    // Over-limit keys pass 1,000 within their first seconds (long before the kill), and none of
    // those leave the window within a 60 s run; steady keys never reach 1,000 in a minute.
    const expectedAdmitted = group.group === 'over limit' && SECONDS <= 60 ? LIMIT : admitted;
    if (group.group === 'over limit' ? admitted !== expectedAdmitted : limited !== 0) {
      limiterProblems.push(`${key.id} (${group.group}): ${admitted} admitted, ${limited} × 429`);
    }
  }
  const statuses = [...byStatus.entries()].sort().map(([s, n]) => `${s}: ${n}`).join(', ');
  console.log(`answers received: ${answered} in ${elapsedS.toFixed(1)} s = ${(answered / elapsedS).toFixed(0)} req/s (${statuses}); ` +
    `${errors} connection errors (the killed process was down ${(downMs / 1000).toFixed(1)} s)`);
  // Only the surviving process's keys: after a reconnect autocannon pairs each answer with the
  // send time of a request lost with the old connection, so the killed process's keys show the
  // pacing pauses of their rate (up to 1 s) as latency.
  const p = results.filter((_, i) => keys[i]!.target === 1).map((r) => r.latency);
  console.log(`latency of the surviving process's keys: median p50 ${median(p.map((l) => l.p50))} ms, median p99 ${median(p.map((l) => l.p99))} ms, worst p99 ${Math.max(...p.map((l) => l.p99))} ms`);
  console.log(`usage in Postgres equals metered answers received: ${exact}/${keys.length} keys exact` + (mismatches.length ? `\n  ${mismatches.join('\n  ')}` : ''));
  const over = keys.filter((k) => k.group.group === 'over limit').length;
  console.log(`rate limit: ${over} over-limit keys admitted exactly ${LIMIT} each, the other ${keys.length - over} keys no 429: ` +
    (limiterProblems.length ? `NO\n  ${limiterProblems.join('\n  ')}` : 'yes'));
  if (mismatches.length || limiterProblems.length || answered / elapsedS < 2000) process.exitCode = 1;
} finally {
  for (const server of servers) await stop(server).catch(() => {});
  await pool.end();
  await env.cleanup();
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
