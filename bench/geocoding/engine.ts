/**
 * Engine micro-benchmark: opens a built geocoder index and replays the HTTP benchmark's query mix
 * (search and autocomplete) single-threaded in process, without HTTP, printing mean/p50/p95/p99
 * per query shape so an engine change can be compared before/after in one run.
 *
 *   node --import tsx bench/geocoding/engine.ts INDEX_FILE CORPUS_DIR [COUNT] [ANSWERS_OUT]
 *
 * ANSWERS_OUT (optional): writes every query's whole answer (one JSON line per query) and prints a
 * digest of them all, to diff the answers of two runs.
 */
import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { openGeocoder } from '../../engines/geocoding/open.ts';
import { autocompleteQueries, searchQueries } from './queries.ts';
import { SAMPLES_FILE, type CorpusSamples } from '../../test/support/geocoding/samples.ts';

const [indexFile, corpusDir, countArg, answersOut] = process.argv.slice(2);
if (!indexFile || !corpusDir) {
  console.error('usage: engine.ts INDEX_FILE CORPUS_DIR [COUNT] [ANSWERS_OUT]');
  process.exit(2);
}
const count = Number(countArg ?? 3000);
const samples = JSON.parse(await readFile(path.join(corpusDir, SAMPLES_FILE), 'utf8')) as CorpusSamples;

let t = performance.now();
const geocoder = await openGeocoder(indexFile, 'bench');
console.log(`index opened in ${((performance.now() - t) / 1000).toFixed(1)} s`);

const controls = { lang: 'en', limit: 10 };
const timings = new Map<string, number[]>();
const record = (kind: string, ms: number) => {
  let list = timings.get(kind);
  if (!list) timings.set(kind, (list = []));
  list.push(ms);
};
const answers: string[] = [];

// Warm-up: JIT and lazily built caches, not measured.
for (const s of searchQueries(samples, 300, 99)) geocoder.search(s.q, controls);
for (const q of autocompleteQueries(samples, 300, 98)) geocoder.autocomplete(q, controls);

let expected = 0;
let expectedTop1 = 0;
/** CPU time (user + system, µs) per query of each loop: steadier than wall time on a shared machine. */
const cpuPerQuery = new Map<string, number>();
const cpuSince = (start: NodeJS.CpuUsage, n: number) => {
  const used = process.cpuUsage(start);
  return (used.user + used.system) / Math.max(1, n);
};
const searches = searchQueries(samples, count);
let cpu = process.cpuUsage();
for (const s of searches) {
  t = performance.now();
  const results = geocoder.search(s.q, controls);
  const ms = performance.now() - t;
  record(`search ${s.shape}${s.typo ? ' (typo)' : ''}`, ms);
  record('search (all)', ms);
  answers.push(`S ${s.q} → ${JSON.stringify(results)}`);
  if (s.expect) {
    expected++;
    const top = results[0];
    if (top?.layer === 'address' && top.address?.housenumber === s.expect.number) expectedTop1++;
  }
}
cpuPerQuery.set('search', cpuSince(cpu, searches.length));
const prefixes = autocompleteQueries(samples, count);
cpu = process.cpuUsage();
for (const q of prefixes) {
  t = performance.now();
  const results = geocoder.autocomplete(q, controls);
  const ms = performance.now() - t;
  record(`autocomplete ${q.trim().length <= 3 ? '≤3 chars' : '>3 chars'}`, ms);
  record('autocomplete (all)', ms);
  answers.push(`A ${q} → ${JSON.stringify(results)}`);
}

cpuPerQuery.set('autocomplete', cpuSince(cpu, prefixes.length));

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
console.log(`${'kind'.padEnd(32)}${'n'.padStart(6)}${'mean'.padStart(8)}${'p50'.padStart(8)}${'p95'.padStart(8)}${'p99'.padStart(8)}${'max'.padStart(8)}  (ms)`);
for (const [kind, list] of [...timings].sort((a, b) => a[0].localeCompare(b[0]))) {
  const sorted = [...list].sort((a, b) => a - b);
  const mean = list.reduce((x, y) => x + y, 0) / list.length;
  console.log(`${kind.padEnd(32)}${String(list.length).padStart(6)}${[mean, pct(sorted, 50), pct(sorted, 95), pct(sorted, 99), sorted.at(-1)!]
    .map((v) => v.toFixed(2).padStart(8)).join('')}`);
}
console.log(`CPU per query (µs, answers and their bookkeeping included): ${[...cpuPerQuery].map(([k, v]) => `${k} ${v.toFixed(0)}`).join(', ')}`);
console.log(`address queries whose top result has the sampled civic number: ${expectedTop1}/${expected}`);
if (answersOut) {
  const text = answers.join('\n') + '\n';
  await writeFile(answersOut, text);
  console.log(`answers: ${answers.length} queries, sha256 ${createHash('sha256').update(text).digest('hex').slice(0, 16)} (${answersOut})`);
}
