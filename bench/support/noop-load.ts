/**
 * The harness of the request-shell benchmarks (bench/auth, bench/access): a child process runs
 * the servers to compare and prints their URLs as one JSON line; autocannon then loads each
 * target in alternating rounds, so a busy machine skews all of them alike.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { createInterface } from 'node:readline';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv, type TestEnv } from '../../test/support/env.ts';

interface LoadResult {
  requests: { average: number };
  latency: { average: number; p50: number; p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}
type Autocannon = (options: { url: string; connections: number; duration: number; headers?: Record<string, string> }) => Promise<LoadResult>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

export interface LoadTarget {
  label: string;
  url: string;
  headers: Record<string, string>;
}

/**
 * Starts `serversScript` in its own test env (database, Redis prefix) with an indie key, hands
 * `fn` the URLs it printed, the key and the env, and tears everything down after.
 */
export async function withServers<T>(name: string, serversScript: string, fn: (urls: Record<string, string>, key: string, env: TestEnv) => Promise<T>): Promise<T> {
  const env = await createTestEnv(name, { LOG_LEVEL: 'silent' });
  const child = spawn(process.execPath, ['--import', 'tsx', serversScript], { env: { ...process.env, ...env.env }, stdio: ['ignore', 'pipe', 'inherit'] });
  try {
    const pool = createPool(env.config.databaseUrl, 1);
    const { key } = await createKey(pool, { accountId: 'bench', plan: 'indie' });
    await pool.end();
    const [line] = (await once(createInterface({ input: child.stdout! }), 'line')) as [string];
    return await fn(JSON.parse(line) as Record<string, string>, key, env);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
    await env.cleanup();
  }
}

/** Loads every target for `seconds` per round, alternating, printing a table; returns mean req/s per target. */
export async function alternatingRounds(targets: LoadTarget[], options: { rounds: number; seconds: number; connections: number }): Promise<number[]> {
  const { rounds, seconds, connections } = options;
  for (const t of targets) await autocannon({ url: t.url, connections, duration: 2, headers: t.headers }); // warm-up
  const width = Math.max(...targets.map((t) => t.label.length)) + 2;
  console.log(`GET /noop, ${connections} connections, loopback, Node ${process.version}; ${rounds} alternating rounds of ${seconds} s per server`);
  console.log(`${'server'.padEnd(width)}${'round'.padStart(6)}${'req/s'.padStart(9)}${'mean ms'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}`);
  const totals = targets.map(() => 0);
  for (let round = 1; round <= rounds; round++) {
    for (const [i, t] of targets.entries()) {
      const r = await autocannon({ url: t.url, connections, duration: seconds, headers: t.headers });
      if (r.non2xx || r.errors || r.timeouts) throw new Error(`${t.label}: ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts`);
      totals[i] = totals[i]! + r.requests.average;
      console.log(`${t.label.padEnd(width)}${String(round).padStart(6)}${r.requests.average.toFixed(0).padStart(9)}${r.latency.average.toFixed(2).padStart(9)}${String(r.latency.p50).padStart(8)}${String(r.latency.p99).padStart(8)}`);
    }
  }
  return totals.map((t) => t / rounds);
}
