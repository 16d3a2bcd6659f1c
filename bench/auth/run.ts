// Cost of canmap's request shell (CORS, API-key auth with its cache, origin rule, error
// handling) against a bare Fastify route. Run: node --import tsx bench/auth/run.ts
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
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
const ROUNDS = 2;
const ROUND_S = 5;
const CONNECTIONS = 20;

const env = await createTestEnv('bench_auth', { LOG_LEVEL: 'silent' });
const child = spawn(process.execPath, ['--import', 'tsx', path.join(path.dirname(fileURLToPath(import.meta.url)), 'servers.ts')], {
  env: { ...process.env, ...env.env },
  stdio: ['ignore', 'pipe', 'inherit'],
});
try {
  const pool = createPool(env.config.databaseUrl, 1);
  const { key } = await createKey(pool, { accountId: 'bench', plan: 'indie' });
  await pool.end();

  const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
  const { plainUrl, canmapUrl } = JSON.parse(line) as { plainUrl: string; canmapUrl: string };

  const targets: { label: string; url: string; headers: Record<string, string> }[] = [
    { label: 'bare Fastify, no auth', url: `${plainUrl}/noop`, headers: {} },
    { label: 'canmap app, Bearer key', url: `${canmapUrl}/noop`, headers: { authorization: `Bearer ${key}` } },
    { label: 'canmap, key= + Origin', url: `${canmapUrl}/noop?key=${key}`, headers: { origin: 'https://maps.example.com' } },
  ];
  for (const t of targets) await autocannon({ url: t.url, connections: CONNECTIONS, duration: 2, headers: t.headers }); // warm-up

  console.log(`GET /noop, ${CONNECTIONS} connections, loopback, Node ${process.version}; ${ROUNDS} alternating rounds of ${ROUND_S} s per server`);
  console.log(`${'server'.padEnd(26)}${'round'.padStart(6)}${'req/s'.padStart(9)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}`);
  const totals = targets.map(() => 0);
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, t] of targets.entries()) {
      const r = await autocannon({ url: t.url, connections: CONNECTIONS, duration: ROUND_S, headers: t.headers });
      if (r.non2xx || r.errors || r.timeouts) throw new Error(`${t.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      totals[i] = totals[i]! + r.requests.average;
      console.log(`${t.label.padEnd(26)}${String(round).padStart(6)}${r.requests.average.toFixed(0).padStart(9)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}`);
    }
  }
  const [bare, bearer, browser] = totals.map((t) => t / ROUNDS) as [number, number, number];
  console.log(`mean req/s: bare ${bare.toFixed(0)}, canmap Bearer ${bearer.toFixed(0)}, canmap browser-style ${browser.toFixed(0)}`);
  console.log(`canmap / bare throughput: ${(bearer / bare).toFixed(2)} (Bearer), ${(browser / bare).toFixed(2)} (key= + Origin, with CORS headers)`);
} finally {
  child.kill('SIGTERM');
  await once(child, 'exit');
  await env.cleanup();
}
