/**
 * `npm run bench:optimization:timeout`: how long POST /optimize takes against the timeout it was
 * sent, through `canmap serve` over HTTP on a growth-plan key: the 2,000-shipment straight-line
 * request of growth-request.ts (1,000 places, 100 vehicles) with timeout 1 s, 5 s and 20 s, each
 * `--runs` times. Prints requested timeout, answering time (wall, client side), the time over the
 * timeout, the status and the shipments performed; the README states the margin (ANSWER_MARGIN_MS).
 *
 *   npm run bench:optimization:timeout [-- --timeouts 1,5,20] [--runs 2] [--pairs] [--json]
 *
 * --pairs gives every shipment a pickup too (a far harder problem: short timeouts answer 504).
 */
import { parseArgs } from 'node:util';
import { ANSWER_MARGIN_MS } from '../../services/optimization/run-optimization.ts';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { freePort, startCanmap } from '../support/processes.ts';
import { growthRequest } from '../../test/support/optimization/growth-request.ts';

const { values } = parseArgs({
  options: {
    timeouts: { type: 'string', default: '1,5,20' },
    runs: { type: 'string', default: '2' },
    pairs: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
});
const timeouts = values.timeouts.split(',').map(Number);
const runs = Number(values.runs);
if (!timeouts.every((t) => t > 0) || !(runs >= 1)) throw new Error('--timeouts are positive seconds, --runs ≥ 1');
const log = (line: string) => process.stderr.write(`${line}\n`);

interface Row {
  timeoutSeconds: number;
  run: number;
  status: number;
  seconds: number;
  overMs: number;
  performed: number;
  error?: string;
}

const env = await createTestEnv('bench_optimization_timeout');
const pool = createPool(env.config.databaseUrl, 2);
let server: ReturnType<typeof startCanmap> | null = null;
const rows: Row[] = [];
try {
  const { key } = await createKey(pool, { plan: 'growth' });
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  server = startCanmap(['serve'], { ...env.env, PORT: String(port), BASE_URL: url, LOG_LEVEL: 'warn' });
  const post = (body: unknown) => fetch(`${url}/optimize`, { method: 'POST', body: JSON.stringify(body), headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  for (let up = false; !up;) {
    await new Promise((r) => setTimeout(r, 250));
    if (server.child.exitCode !== null) throw new Error(`canmap serve exited:\n${server.output()}`);
    up = await post({ solvingMode: 'VALIDATE_ONLY', model: {} }).then(() => true, () => false);
  }
  // Steady state, as a running API is: solver threads started, request checks compiled.
  await (await post(growthRequest({ shipments: 20, places: 20, vehicles: 2 }))).text();
  await (await post({ ...growthRequest({ pairs: values.pairs }), solvingMode: 'VALIDATE_ONLY' })).text();

  for (const timeoutSeconds of timeouts) {
    for (let run = 1; run <= runs; run++) {
      const body = growthRequest({ timeout: `${timeoutSeconds}s`, pairs: values.pairs });
      const started = performance.now();
      const res = await post(body);
      const text = await res.text();
      const seconds = (performance.now() - started) / 1000;
      const json = JSON.parse(text) as { routes?: { visits?: { shipmentIndex?: number }[] }[]; error?: string };
      const performed = new Set((json.routes ?? []).flatMap((r) => (r.visits ?? []).map((v) => v.shipmentIndex ?? 0))).size;
      const row: Row = { timeoutSeconds, run, status: res.status, seconds, overMs: Math.round(seconds * 1000 - timeoutSeconds * 1000), performed };
      if (res.status !== 200) row.error = json.error ?? text.slice(0, 200);
      rows.push(row);
      log(`timeout ${timeoutSeconds} s, run ${run}: HTTP ${row.status} after ${seconds.toFixed(2)} s (${row.overMs >= 0 ? '+' : ''}${row.overMs} ms), ${performed} shipments performed${row.error ? `: ${row.error}` : ''}`);
    }
  }
} finally {
  await server?.stop();
  await pool.end();
  await env.cleanup();
}

const worstOverMs = Math.max(...rows.map((r) => r.overMs));
const summary = { request: { shipments: 2000, places: 1000, vehicles: 100, pairs: values.pairs, travel: 'geodesic' }, marginMs: ANSWER_MARGIN_MS, worstOverMs, withinMargin: worstOverMs <= ANSWER_MARGIN_MS, rows };
if (values.json) console.log(JSON.stringify(summary));
else {
  console.log('timeout   answered   over      status  performed');
  for (const r of rows) console.log(`${`${r.timeoutSeconds} s`.padEnd(10)}${`${r.seconds.toFixed(2)} s`.padEnd(11)}${`${r.overMs} ms`.padEnd(10)}${String(r.status).padEnd(8)}${r.performed}`);
  console.log(`worst over the timeout: ${worstOverMs} ms (margin ${ANSWER_MARGIN_MS} ms)`);
}
