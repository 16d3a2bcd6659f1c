/**
 * National-scale geocoding benchmark through the real paths, on one machine:
 *
 * 1. build: `canmap ingest geocoding --input regions:… --input localities:… --input addresses-oa:…
 *    --input osm:… --enable --wait` against a `canmap worker` (own database, Redis prefix and
 *    releases dir, as test/support/env.ts gives tests), timing the job and sampling the worker's
 *    RSS every 200 ms (peak = VmHWM) per build phase;
 * 2. `canmap serve` with the release enabled: time from spawn to the first 200 of
 *    /geocode/search, and its RSS then;
 * 3. autocannon through the full stack (Bearer auth), --connections for --duration s each, over
 *    rotating realistic requests drawn from the generated data: search, autocomplete, reverse,
 *    nearby (p50/p95/p99, req/s);
 * 4. POST /geocode/batch with 100 queries, --batch-requests times in a row (p50/p95).
 *
 * The corpus (generate.ts) is made first when --dir has none.
 *
 * Each load run also reports the API processes' CPU time per answer (robust when the load generator
 * shares the cores); --json prints one object last with `runs: [{name, rps, p50_ms, p95_ms, p99_ms,
 * cpu_us_per_answer}]` (batch: per request of 100 queries).
 *
 *   node --import tsx bench/geocoding/run.ts [--scale 0.01] [--dir DIR] [--connections 16] [--duration 20]
 *     [--processes 1] [--keep]   (--keep: keep the built release and serve it again on the next --keep run)
 *     [--batch-requests 50] [--build-heap-mb 12288] [--api-heap-mb N] [--no-regions]
 *     [--endpoints search,autocomplete,reverse,nearby] [--cpu-prof]   (API under node --cpu-prof: where its CPU time went;
 *     with --endpoints search the profile is mostly search)
 */
import { access, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { createKey } from '../../io/access/key-store.ts';
import { ADDONS } from '../../schemas/plans.ts';
import { createPool } from '../../lib/postgres.ts';
import { defaultCorpusDir, describeSummary, generateCorpus } from '../../test/support/geocoding/generate.ts';
import { cpuPerAnswer, loadPaths, type CpuPerAnswer, type LoadResult } from './load.ts';
import { freePort, GB, startCanmap, treeCpuSeconds, treeMemoryOf, type CanmapChild } from '../support/processes.ts';
import { autocompleteQueries, nearbyCategories, pointsNearAddresses, searchQueries, type SearchQuery } from './queries.ts';
import { SAMPLES_FILE, type CorpusSamples } from '../../test/support/geocoding/samples.ts';
import { latencySummary } from '../transit/http-latency.ts';
import { summarizeCpuProfile } from './cpu-profile.ts';
import { buildRelease } from './build.ts';
import { openBenchEnv } from './bench-env.ts';
import { selfCpuSeconds } from '../support/process-cpu.ts';

const TARGETS = {
  buildMinutes: 30, buildPeakGb: 16, firstAnswerS: 10, apiRssGb: 6,
  autocompleteP95: 15, searchP95: 30, searchRps: 500, batchP95Ms: 1000,
};

const { values } = parseArgs({
  options: {
    scale: { type: 'string', default: '1' },
    dir: { type: 'string' },
    connections: { type: 'string', default: '16' },
    duration: { type: 'string', default: '20' },
    'batch-requests': { type: 'string', default: '50' },
    // 16 GB target minus the build's 4 GB DuckDB memory_limit (ingest/geocoding/release.ts).
    'build-heap-mb': { type: 'string', default: '12288' },
    'api-heap-mb': { type: 'string' },
    'no-regions': { type: 'boolean', default: false },
    'build-timeout-min': { type: 'string', default: '120' },
    'cpu-prof': { type: 'boolean', default: false },
    endpoints: { type: 'string', default: 'search,autocomplete,reverse,nearby' },
    json: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
    processes: { type: 'string', default: '1' },
  },
});
const scale = Number(values.scale);
const connections = Number(values.connections);
const duration = Number(values.duration);
const batchRequests = Number(values['batch-requests']);
const buildHeapMb = Number(values['build-heap-mb']);
const apiProcesses = Number(values.processes);
const apiHeapMb = values['api-heap-mb'] ? Number(values['api-heap-mb']) : null;
const gb = (bytes: number) => `${(bytes / GB).toFixed(2)} GB`;
const log = (line: string) => console.error(line);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- corpus -----------------------------------------------------------------------------------
const corpusDir = values.dir ?? defaultCorpusDir(scale);
if (!(await access(path.join(corpusDir, SAMPLES_FILE)).then(() => true, () => false))) {
  log(`generating the corpus in ${corpusDir} (scale ${scale}) ...`);
  log(describeSummary(await generateCorpus({ dir: corpusDir, scale, log })));
}
const samples = JSON.parse(await readFile(path.join(corpusDir, SAMPLES_FILE), 'utf8')) as CorpusSamples;
const corpus = samples.summary;
log(`corpus: ${corpus.addresses.toLocaleString('en-CA')} address points, ${corpus.pois.toLocaleString('en-CA')} POIs, ${corpus.localities} localities (${corpusDir})`);

const env = await openBenchEnv(corpusDir, values.keep!, {
  LOG_LEVEL: 'silent', ROAD_EVENTS_POLL_SECONDS: '0', CLOSURES_POLL_SECONDS: '0', JOB_ATTEMPTS: '1',
  GEOCODING_BUILD_HEAP_MB: String(buildHeapMb),
});
const children: CanmapChild[] = [];
const pool = createPool(env.config.databaseUrl, 2);
try {
  // ---- 1. build through the worker (or the kept env's release) ------------------------------
  const build = env.built ?? await buildRelease({
    env: env.env, releasesDir: env.config.releasesDir, corpus, regions: !values['no-regions'], buildHeapMb,
    timeoutMin: Number(values['build-timeout-min']), log,
  });
  if (env.built) log(`reusing the kept release ${build.release} (built in ${build.seconds.toFixed(1)} s); --keep without a saved env builds one`);
  else await env.remember(build);
  const buildSeconds = build.seconds;
  const buildPeak = build.peakRss;
  const releaseLine = build.releaseLine;
  log(releaseLine);

  // ---- 2. the API ---------------------------------------------------------------------------
  // Every add-on: an autocomplete prefix such as "27C" reads as an NTS sheet, which needs legal-land.
  // An account of its own per run: a kept env's database remembers earlier runs' spend (the plan's cap).
  const { key } = await createKey(pool, { accountId: `bench-${Date.now()}`, plan: 'growth', addons: [...ADDONS] });
  const headers = { authorization: `Bearer ${key}` };
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const apiStarted = performance.now();
  const profileDir = values['cpu-prof'] ? await mkdtemp(path.join(os.tmpdir(), 'canmap-bench-geocoding-prof-')) : null;
  const apiNodeArgs = [...(apiHeapMb ? [`--max-old-space-size=${apiHeapMb}`] : []), ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [])];
  const api = startCanmap(['serve', '--processes', String(apiProcesses)], { ...env.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn' }, apiNodeArgs);
  children.push(api);
  const firstCity = [...samples.localities].sort((a, b) => b.population - a.population)[0]!.name;
  let firstAnswerS = NaN;
  for (;;) {
    if (api.child.exitCode !== null) throw new Error(`canmap serve exited (${api.child.exitCode}):\n${api.output()}`);
    const res = await fetch(`${url}/geocode/search?q=${encodeURIComponent(firstCity)}`, { headers }).catch(() => null);
    if (res?.status === 200 && ((await res.json()) as unknown[]).length > 0) {
      firstAnswerS = (performance.now() - apiStarted) / 1000;
      break;
    }
    if (res && res.status !== 503) throw new Error(`first search: ${res.status} ${await res.text()}`);
    if (performance.now() - apiStarted > 300_000) throw new Error(`no answer from the API within 300 s:\n${api.output()}`);
    await sleep(50);
  }
  const apiOpen = treeMemoryOf(api.child.pid!);
  log(`API answered its first search ${firstAnswerS.toFixed(2)} s after spawn; RSS ${gb(apiOpen.rss)}`);

  // ---- what to ask ----------------------------------------------------------------------------
  const searches = searchQueries(samples, 20_000);
  const enc = encodeURIComponent;
  const searchPaths = searches.map((s) => `/geocode/search?q=${enc(s.q)}`);
  const autocompletePaths = autocompleteQueries(samples, 20_000).map((q) => `/geocode/autocomplete?q=${enc(q)}`);
  const reversePaths = pointsNearAddresses(samples, 20_000).map((p) => `/geocode/reverse?lon=${p.lng.toFixed(6)}&lat=${p.lat.toFixed(6)}`);
  const categories = nearbyCategories(20_000);
  const nearbyPaths = pointsNearAddresses(samples, 20_000, 15).map((p, i) => `/geocode/nearby?category=${enc(categories[i]!)}&near=${p.lng.toFixed(6)},${p.lat.toFixed(6)}`);

  // Sanity, before the load: answers are not empty, and exact addresses come back first.
  const get = async (p: string) => {
    const res = await fetch(`${url}${p}`, { headers });
    if (res.status !== 200) throw new Error(`${p}: ${res.status} ${await res.text()}`);
    return (await res.json()) as { lng: number; lat: number; layer: string }[];
  };
  const emptyShare = async (paths: string[]) => {
    let empty = 0;
    for (const p of paths) if (!(await get(p)).length) empty++;
    return empty / paths.length;
  };
  const exact = searches.filter((s): s is SearchQuery & { expect: NonNullable<SearchQuery['expect']> } => s.expect !== undefined).slice(0, 300);
  let top1 = 0;
  for (const s of exact) {
    const [first] = await get(`/geocode/search?q=${enc(s.q)}`);
    const metres = first ? Math.hypot((first.lng - s.expect.lng) * 111_320 * Math.cos((s.expect.lat * Math.PI) / 180), (first.lat - s.expect.lat) * 111_320) : Infinity;
    if (first?.layer === 'address' && metres < 5) top1++;
  }
  const empties = {
    search: await emptyShare(searchPaths.slice(0, 300)),
    autocomplete: await emptyShare(autocompletePaths.slice(0, 300)),
    reverse: await emptyShare(reversePaths.slice(0, 300)),
    nearby: await emptyShare(nearbyPaths.slice(0, 300)),
  };
  // Service time per kind of query, one request at a time: which shapes are slow.
  const timed = async (p: string) => {
    const t = performance.now();
    await get(p);
    return performance.now() - t;
  };
  const groups = new Map<string, string[]>();
  const group = (label: string, p: string) => {
    const list = groups.get(label) ?? [];
    if (list.length < 100) list.push(p);
    groups.set(label, list);
  };
  searches.forEach((s, i) => group(`search: ${s.shape}${s.typo ? ' + typo' : ''}`, searchPaths[i]!));
  autocompletePaths.forEach((p) => {
    const length = decodeURIComponent(p.slice(p.indexOf('q=') + 2)).length;
    group(`autocomplete: ${length <= 3 ? '2-3' : length <= 6 ? '4-6' : length <= 12 ? '7-12' : '13+'} chars`, p);
  });
  const serviceTimes: [string, number, number, number][] = [];
  for (const [label, paths] of [...groups].sort(([a], [b]) => a.localeCompare(b))) {
    const ms: number[] = [];
    for (const p of paths) ms.push(await timed(p));
    const s = latencySummary(ms, 1);
    serviceTimes.push([label, paths.length, s.p50, s.p95]);
  }
  log(`sanity: ${top1}/${exact.length} exact address queries return that address first; empty answers: ${Object.entries(empties).map(([k, v]) => `${k} ${(v * 100).toFixed(1)}%`).join(', ')}`);

  // ---- 3. load ------------------------------------------------------------------------------
  const wanted = new Set(values.endpoints!.split(','));
  const endpoints = ([['search', searchPaths], ['autocomplete', autocompletePaths], ['reverse', reversePaths], ['nearby', nearbyPaths]] as [string, string[]][])
    .filter(([label]) => wanted.has(label));
  const results = new Map<string, LoadResult & CpuPerAnswer>();
  const apiCpu = () => treeCpuSeconds(api.child.pid!);
  for (const [label, paths] of endpoints) {
    await loadPaths(paths.slice(paths.length / 2), { url, headers, connections, seconds: 3 }); // warm-up: JIT, key cache
    const [api0, loader0] = [apiCpu(), selfCpuSeconds()];
    const r = await loadPaths(paths, { url, headers, connections, seconds: duration });
    const cpu = cpuPerAnswer(apiCpu() - api0, selfCpuSeconds() - loader0, r.requests);
    results.set(label, { ...r, ...cpu });
    log(`  ${label}: ${r.rps.toFixed(0)} req/s, p95 ${r.p95.toFixed(1)} ms, ${r.failed} failed; API CPU ${cpu.cpuUsPerAnswer.toFixed(0)} µs/answer; API RSS ${gb(treeMemoryOf(api.child.pid!).rss)}; load ${os.loadavg()[0]!.toFixed(2)}`);
  }

  // ---- 4. batch -----------------------------------------------------------------------------
  const batchLatencies: number[] = [];
  const batchStarted = performance.now();
  const [batchApi0, batchLoader0] = [apiCpu(), selfCpuSeconds()];
  for (let i = 0; i < batchRequests; i++) {
    const queries = searches.slice((i * 100) % (searches.length - 100), ((i * 100) % (searches.length - 100)) + 100).map((s) => s.q);
    const t = performance.now();
    const res = await fetch(`${url}/geocode/batch`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify({ queries }) });
    const body = (await res.json()) as unknown[];
    batchLatencies.push(performance.now() - t);
    if (res.status !== 200 || body.length !== 100) throw new Error(`batch: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
  }
  const batch = { ...latencySummary(batchLatencies, (performance.now() - batchStarted) / 1000), ...cpuPerAnswer(apiCpu() - batchApi0, selfCpuSeconds() - batchLoader0, batchRequests) };
  const apiEnd = treeMemoryOf(api.child.pid!);
  let profile: string | null = null;
  if (profileDir) {
    await api.stop();
    const [file] = (await readdir(profileDir)).filter((f) => f.endsWith('.cpuprofile'));
    profile = file ? summarizeCpuProfile(JSON.parse(await readFile(path.join(profileDir, file), 'utf8')), 25) : 'no profile written';
    await rm(profileDir, { recursive: true, force: true });
  }

  // ---- report -------------------------------------------------------------------------------
  const cpus = os.cpus();
  console.log(`\nGeocoding benchmark: ${corpus.addresses.toLocaleString('en-CA')} address points + ${corpus.pois.toLocaleString('en-CA')} POIs over ${corpus.localities} real localities (scale ${corpus.scale})`);
  console.log(`${cpus.length} × ${cpus[0]?.model.trim()}, ${gb(os.totalmem())} RAM, Node ${process.version}; load generator, API and Postgres/Redis share the machine`);
  console.log(`API: canmap serve --processes ${apiProcesses}; load average at the end ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  if (env.built) console.log(`build: the kept release ${build.release} (--keep), built in an earlier run`);
  console.log(releaseLine);
  for (const line of build.lines) console.log(line);
  console.log(`\nGET /geocode/*, full stack with Bearer auth, ${connections} connections, ${duration} s each (after 3 s warm-up), rotating requests from the corpus`);
  console.log(`${'endpoint'.padEnd(14)}${'req/s'.padStart(8)}${'p50 ms'.padStart(8)}${'p95 ms'.padStart(8)}${'p99 ms'.padStart(8)}${'failed'.padStart(8)}${'empty'.padStart(8)}${'bytes'.padStart(8)}${'API CPU µs/answer'.padStart(19)}${'loader µs'.padStart(11)}`);
  for (const [label, r] of results) {
    const empty = `${((empties[label as keyof typeof empties] ?? 0) * 100).toFixed(1)}%`;
    console.log(`${label.padEnd(14)}${r.rps.toFixed(0).padStart(8)}${r.p50.toFixed(1).padStart(8)}${r.p95.toFixed(1).padStart(8)}${r.p99.toFixed(1).padStart(8)}${String(r.failed).padStart(8)}${empty.padStart(8)}${r.meanBytes.toFixed(0).padStart(8)}${r.cpuUsPerAnswer.toFixed(0).padStart(19)}${r.loaderCpuUsPerAnswer.toFixed(0).padStart(11)}`);
  }
  console.log('\nservice time by kind of query, one request at a time (ms):');
  console.log(`${'kind'.padEnd(36)}${'n'.padStart(5)}${'p50'.padStart(8)}${'p95'.padStart(8)}`);
  for (const [label, n, p50, p95] of serviceTimes) console.log(`${label.padEnd(36)}${String(n).padStart(5)}${p50.toFixed(1).padStart(8)}${p95.toFixed(1).padStart(8)}`);
  console.log(`search quality check: ${top1}/${exact.length} exact "<number> <street> <city>" queries answer that address first`);
  console.log(`POST /geocode/batch (100 queries), ${batchRequests} requests one after another: p50 ${batch.p50.toFixed(0)} ms, p95 ${batch.p95.toFixed(0)} ms, p99 ${batch.p99.toFixed(0)} ms; API CPU ${(batch.cpuUsPerAnswer / 1000).toFixed(1)} ms per batch`);

  if (profile) console.log(`\nAPI CPU profile over the whole run (startup, checks, load, batch), by self time:\n${profile}`);

  const search = results.get('search');
  const autocomplete = results.get('autocomplete');
  const rows: [string, string, string, boolean][] = [
    ['build wall time (ingest --wait)', `${(buildSeconds / 60).toFixed(1)} min`, `≤ ${TARGETS.buildMinutes} min`, buildSeconds <= TARGETS.buildMinutes * 60],
    ['build peak RSS (worker and its build process)', gb(buildPeak), `≤ ${TARGETS.buildPeakGb} GB`, buildPeak <= TARGETS.buildPeakGb * GB],
    ['API spawn → first search answer', `${firstAnswerS.toFixed(2)} s`, `≤ ${TARGETS.firstAnswerS} s`, firstAnswerS <= TARGETS.firstAnswerS],
    ['API RSS after opening', gb(apiOpen.rss), `≤ ${TARGETS.apiRssGb} GB`, apiOpen.rss <= TARGETS.apiRssGb * GB],
    ['API peak RSS (end of load)', gb(apiEnd.hwm), `≤ ${TARGETS.apiRssGb} GB`, apiEnd.hwm <= TARGETS.apiRssGb * GB],
    ...(search ? [
      ['search p95', `${search.p95.toFixed(1)} ms`, `≤ ${TARGETS.searchP95} ms`, search.p95 <= TARGETS.searchP95 && search.failed === 0],
      ['search throughput', `${search.rps.toFixed(0)} req/s`, `≥ ${TARGETS.searchRps} req/s`, search.rps >= TARGETS.searchRps],
    ] as [string, string, string, boolean][] : []),
    ...(autocomplete ? [
      ['autocomplete p95', `${autocomplete.p95.toFixed(1)} ms`, `≤ ${TARGETS.autocompleteP95} ms`, autocomplete.p95 <= TARGETS.autocompleteP95 && autocomplete.failed === 0],
    ] as [string, string, string, boolean][] : []),
    ['batch of 100 p95', `${batch.p95.toFixed(0)} ms`, `≤ ${TARGETS.batchP95Ms} ms`, batch.p95 <= TARGETS.batchP95Ms],
  ];
  console.log(`\n${'measure'.padEnd(38)}${'measured'.padStart(14)}${'target'.padStart(16)}   result`);
  for (const [label, measured, target, met] of rows) console.log(`${label.padEnd(38)}${measured.padStart(14)}${target.padStart(16)}   ${met ? 'met' : 'NOT met'}`);
  if (values.json) {
    console.log(JSON.stringify({
      scale, connections, duration,
      endpoints: Object.fromEntries([...results].map(([name, r]) => [name, { rps: r.rps, p50: r.p50, p95: r.p95, p99: r.p99, failed: r.failed }])),
      batch: { p50: batch.p50, p95: batch.p95, p99: batch.p99 },
      targets: rows.map(([measure, measured, target, met]) => ({ measure, measured, target, met })),
      processes: apiProcesses,
      loadavg: os.loadavg(),
      runs: [
        ...[...results].map(([name, r]) => ({ name, rps: r.rps, p50_ms: r.p50, p95_ms: r.p95, p99_ms: r.p99, cpu_us_per_answer: r.cpuUsPerAnswer })),
        { name: 'batch', rps: batch.rps, p50_ms: batch.p50, p95_ms: batch.p95, p99_ms: batch.p99, cpu_us_per_answer: batch.cpuUsPerAnswer },
      ],
    }));
  }
} finally {
  for (const child of children.reverse()) await child.stop();
  await pool.end();
  await env.cleanup();
}
