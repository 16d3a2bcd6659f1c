// Cost of the per-key rate limit (one EVALSHA per request) on an authenticated no-op route:
// canmap with auth only vs canmap with auth + rate limit, beside a bare Fastify no-op.
// Target: limited ≥ 0.8× auth-only. Run: npm run bench:access
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { createKey } from '../../lib/keys.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';

interface LoadResult {
  requests: { average: number };
  latency: { average: number; p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<LoadResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

// Rounds alternate between the servers so a busy machine skews all of them alike.
const ROUNDS = 3;
const ROUND_S = 5;
const CONNECTIONS = 20;
const TARGET = 0.8;

const env = await createTestEnv('bench_access', { LOG_LEVEL: 'silent' });
const child = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'servers.ts')], {
  env: { ...process.env, ...env.env },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const pool = createPool(env.config.databaseUrl, 1);
  const { key } = await createKey(pool, { accountId: 'bench', plan: 'indie' });
  await pool.end();

  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { plainUrl, authOnlyUrl, limitedUrl } = JSON.parse(line) as Record<string, string>;
  const bearer = { authorization: `Bearer ${key}` };
  const targets: { label: string; url: string; headers: Record<string, string> }[] = [
    { label: 'bare Fastify, no auth', url: `${plainUrl}/noop`, headers: {} },
    { label: 'canmap, auth only', url: `${authOnlyUrl}/noop`, headers: bearer },
    { label: 'canmap, auth + rate limit', url: `${limitedUrl}/noop`, headers: bearer },
  ];
  for (const t of targets) await autocannon({ url: t.url, connections: CONNECTIONS, duration: 2, headers: t.headers }); // warm-up

  console.log(`GET /noop, Bearer key, ${CONNECTIONS} connections, loopback, Node ${process.version}; ${ROUNDS} alternating rounds of ${ROUND_S} s per server`);
  console.log(`${'server'.padEnd(28)}${'round'.padStart(6)}${'req/s'.padStart(9)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}`);
  const totals = targets.map(() => 0);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const r = await autocannon({ url: t.url, connections: CONNECTIONS, duration: ROUND_S, headers: t.headers });
      if (r.non2xx || r.errors || r.timeouts) throw new Error(`${t.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      totals[i] = totals[i]! + r.requests.average;
      console.log(`${t.label.padEnd(28)}${String(round).padStart(6)}${r.requests.average.toFixed(0).padStart(9)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}`);
    }
  }
  const [bare, authOnly, limited] = totals.map((t) => t / ROUNDS) as [number, number, number];
  // The log really is at its production length: the script ran for every request.
  const redis = new Redis(env.config.redisUrl);
  const logLength = (await redis.keys(`${env.config.redisPrefix}:rate-limit:*`).then((keys) => Promise.all(keys.map((k) => redis.llen(k))))).join(', ');
  redis.disconnect();
  const ratio = limited / authOnly;
  console.log(`mean req/s: bare ${bare.toFixed(0)}, auth only ${authOnly.toFixed(0)}, auth + rate limit ${limited.toFixed(0)} (rate-limit log length ${logLength})`);
  console.log(`rate limit / auth only: ${ratio.toFixed(2)}× (target ≥ ${TARGET}×: ${ratio >= TARGET ? 'met' : 'NOT met'}); about ${((1e6 / limited) - (1e6 / authOnly)).toFixed(1)} µs more per request`);
  console.log(`auth only / bare: ${(authOnly / bare).toFixed(2)}×, auth + rate limit / bare: ${(limited / bare).toFixed(2)}×`);
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
  await env.cleanup();
}
