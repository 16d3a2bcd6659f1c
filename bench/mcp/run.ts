/**
 * `npm run bench:mcp`: what a tool call costs the server beside the HTTP request it stands for.
 * The demo builds its sample releases, then one `canmap serve` (its own process, the full stack:
 * key, rate limit, metering) answers, in alternating rounds at 16 connections, the same input
 * as GET over HTTP and as a `tools/call` POSTed to /mcp (stateless, JSON answers), for geocode,
 * route and departures. The figure is server CPU per answer (the API process's CPU time over
 * the answers it gave), which the load generator on the same 2 cores does not distort; the
 * target is MCP ≤ 1.3× HTTP.
 *
 *   npm run bench:mcp [-- --seconds 5 --rounds 3 --only geocode,route --json]
 */
import { parseArgs } from 'node:util';
import { createKey } from '../../io/access/key-store.ts';
import { createPool } from '../../lib/postgres.ts';
import { createTestEnv } from '../../test/support/env.ts';
import { processCpuSeconds } from '../support/process-cpu.ts';
import { freePort, startCanmap, type CanmapChild } from '../support/processes.ts';
import { loadRequest, type LoadRequest } from './load-requests.ts';

const TARGET_RATIO = 1.3;
const CONNECTIONS = 16;
const { values } = parseArgs({ options: { seconds: { type: 'string', default: '5' }, rounds: { type: 'string', default: '3' }, json: { type: 'boolean', default: false }, only: { type: 'string' } } });
const seconds = Number(values.seconds);
const rounds = Number(values.rounds);
const log = (line: string) => process.stderr.write(`${line}\n`);

const STOP = 'svc:transit:stop:vancouver-bus:GRAN_GEORGIA';
const AT = '2026-11-26T08:00:00-08:00';
/** Each capability's HTTP request and the tool call with the same input. */
const PAIRS = [
  {
    name: 'geocode', http: `/geocode/search?q=${encodeURIComponent('111 Wellington St Ottawa')}`, tool: 'geocode', args: { q: '111 Wellington St Ottawa' },
    // The same search POSTed over HTTP (a batch of one): what reading and parsing a JSON body costs any POST, beside the MCP call.
    post: { path: '/geocode/batch', body: { queries: ['111 Wellington St Ottawa'] } },
  },
  { name: 'route', http: '/route?from=-123.1115,49.2856&to=-123.1390,49.2750', tool: 'route', args: { from: '-123.1115,49.2856', to: '-123.1390,49.2750' } },
  {
    name: 'departures', http: `/transit/stops/${encodeURIComponent(STOP)}/departures?at=${encodeURIComponent(AT)}&window=120`,
    tool: 'transit_departures', args: { id: STOP, at: AT, window: 120 },
  },
];

type Side = 'http' | 'http-post' | 'mcp';

function requestsOf(pair: (typeof PAIRS)[number], key: string): Partial<Record<Side, LoadRequest>> {
  const auth = { authorization: `Bearer ${key}` };
  const post = 'post' in pair ? pair.post : undefined;
  return {
    http: { method: 'GET', path: pair.http, headers: auth },
    ...(post === undefined ? {} : { 'http-post': { method: 'POST', path: post.path, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(post.body) } as LoadRequest }),
    mcp: {
      method: 'POST', path: '/mcp',
      headers: { ...auth, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: pair.tool, arguments: pair.args } }),
    },
  };
}

async function waitFor(child: CanmapChild, pattern: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(child.output())) {
    if (child.child.exitCode !== null) throw new Error(`canmap exited:\n${child.output().slice(-2000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${pattern}:\n${child.output().slice(-2000)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until `url` answers 200 with the key (the server is listening and serves its releases). */
async function answering(child: CanmapChild, url: string, key: string): Promise<void> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 200))) {
    if (child.child.exitCode !== null) throw new Error(`canmap exited:\n${child.output().slice(-2000)}`);
    const status = await fetch(url, { headers: { authorization: `Bearer ${key}` } }).then((r) => r.status, () => 0);
    if (status === 200) return;
  }
  throw new Error(`${url} did not answer 200 within 60 s`);
}

const env = await createTestEnv('bench_mcp', { LOG_LEVEL: 'warn' });
let demo: CanmapChild | null = null;
let serve: CanmapChild | null = null;
try {
  log('canmap demo: building the sample releases ...');
  demo = startCanmap(['demo'], env.env);
  await waitFor(demo, /Ctrl-C stops the demo/, 300_000);
  await demo.stop(); // its releases stay enabled; the measured server runs nothing else
  // A key without an account: no plan quota or block in the way of a load run.
  const pool = createPool(env.config.databaseUrl, 1);
  const { key } = await createKey(pool, {});
  await pool.end();
  const port = await freePort();
  serve = startCanmap(['serve'], { ...env.env, PORT: String(port), ADMIN_PORT: String(await freePort()) });
  const origin = `http://127.0.0.1:${port}`;
  await answering(serve, `${origin}/transit/agencies`, key);
  const pid = serve.child.pid!;

  const runs: { name: string; rps: number; p50_ms: number; p95_ms: number; p99_ms: number; cpu_us_per_answer: number }[] = [];
  const ratios: Record<string, number> = {};
  console.log(`server CPU per answer, ${CONNECTIONS} connections, ${rounds} alternating rounds of ${seconds} s, Node ${process.version}`);
  console.log(`${'run'.padEnd(20)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'CPU µs/answer'.padStart(15)}`);
  for (const pair of PAIRS.filter((p) => values.only === undefined || values.only.split(',').includes(p.name))) {
    const requests = requestsOf(pair, key);
    const sides = (['http', 'http-post', 'mcp'] as const).filter((side) => requests[side] !== undefined);
    const totals = Object.fromEntries(sides.map((side) => [side, { cpu: 0, answers: 0, rps: 0, p50: 0, p95: 0, p99: 0 }]));
    for (const side of sides) await loadRequest(origin, requests[side]!, { connections: CONNECTIONS, seconds: 2 }); // warm-up
    for (let round = 0; round < rounds; round++) {
      for (const side of sides) {
        const before = processCpuSeconds(pid);
        const load = await loadRequest(origin, requests[side]!, { connections: CONNECTIONS, seconds });
        const cpu = processCpuSeconds(pid) - before;
        if (load.failed > 0) throw new Error(`${pair.name} ${side}: ${load.failed} requests failed; statuses ${JSON.stringify(load.statuses)}`);
        const t = totals[side]!;
        t.cpu += cpu;
        t.answers += load.requests;
        t.rps += load.rps / rounds;
        t.p50 += load.p50 / rounds;
        t.p95 += load.p95 / rounds;
        t.p99 += load.p99 / rounds;
      }
    }
    for (const side of sides) {
      const t = totals[side]!;
      const run = { name: `${pair.name}-${side}`, rps: Math.round(t.rps), p50_ms: t.p50, p95_ms: t.p95, p99_ms: t.p99, cpu_us_per_answer: Math.round((t.cpu / t.answers) * 1e6) };
      runs.push(run);
      console.log(`${run.name.padEnd(20)}${String(run.rps).padStart(8)}${run.p50_ms.toFixed(1).padStart(8)}${run.p95_ms.toFixed(1).padStart(8)}${run.p99_ms.toFixed(1).padStart(8)}${String(run.cpu_us_per_answer).padStart(15)}`);
    }
    const cpuOf = (side: Side) => runs.find((r) => r.name === `${pair.name}-${side}`)!.cpu_us_per_answer;
    ratios[pair.name] = cpuOf('mcp') / cpuOf('http');
    if (sides.includes('http-post')) ratios[`${pair.name}-vs-post`] = cpuOf('mcp') / cpuOf('http-post');
    console.log(`${pair.name}: MCP / HTTP = ${ratios[pair.name]!.toFixed(2)}× (target ≤ ${TARGET_RATIO}×)` +
      (sides.includes('http-post') ? `; MCP / the same search POSTed = ${ratios[`${pair.name}-vs-post`]!.toFixed(2)}×` : ''));
  }
  if (values.json) console.log(JSON.stringify({ runs, ratios, target_ratio: TARGET_RATIO, connections: CONNECTIONS, seconds, rounds, node: process.version }));
} finally {
  await serve?.stop();
  await demo?.stop();
  await env.cleanup();
}
