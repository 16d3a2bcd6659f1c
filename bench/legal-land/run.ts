/**
 * `npm run bench:legal-land`: parse-and-locate of land descriptions, well identifiers and parcel
 * ids, in the engine and through the whole API (key auth, access table, rate limit, metering,
 * routing, serialisation; Fastify inject, one request at a time), beside the ceiling of
 * p95 ≤ 5 ms. Queries: the acceptance generator's spellings of DLS and NTS cells at seeded random
 * points, every well UWI and parcel PID of the bundled samples (hits) plus generated ones
 * (mostly misses), and reverse lookups at random prairie and BC points. Energy and parcel
 * releases are built from the samples and served as `canmap serve` serves them.
 *
 *   npm run bench:legal-land [-- --cells 2000] [--reverse 2000] [--seed 15]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { parseGrammarQuery } from '../../engines/grammars/parse.ts';
import { legalLandAt } from '../../engines/grammars/reverse.ts';
import { corpusOf, grammarSearch, type GrammarScope, type RecordSources } from '../../engines/grammars/search.ts';
import { prepareEnergyRelease } from '../../ingest/energy/release.ts';
import { prepareParcelsRelease } from '../../ingest/parcels/release.ts';
import { ENERGY_KIND } from '../../schemas/energy-release.ts';
import { PARCELS_KIND } from '../../schemas/parcels-release.ts';
import { generatedCases, generatedRecordIds } from '../../test/support/grammars/acceptance-cases.ts';
import { seededRandom } from '../../lib/seeded-random.ts';
import { GeocodingApiStack } from '../../test/support/geocoding-api-stack.ts';
import { repoPath } from '../../test/support/paths.ts';

const CEILING_MS = 5;
const { values } = parseArgs({ options: { cells: { type: 'string', default: '2000' }, reverse: { type: 'string', default: '2000' }, seed: { type: 'string', default: '15' } } });
const cells = Number(values.cells);
const reverseCount = Number(values.reverse);
const seed = Number(values.seed);

const column = (file: string, name: string) => {
  const [header, ...rows] = readFileSync(repoPath('samples', ...file.split('/')), 'utf8').trim().split('\n');
  const index = header!.split(',').indexOf(name);
  return rows.map((row) => row.match(/("[^"]*"|[^,]*)(,|$)/g)!.map((f) => f.replace(/,$/, ''))[index]!).filter((v) => v !== '');
};

function percentiles(ms: number[]) {
  const sorted = [...ms].sort((a, b) => a - b);
  const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return { n: sorted.length, p50: at(0.5), p95: at(0.95), p99: at(0.99), max: sorted.at(-1)! };
}

const row = (what: string, ms: number[]) => {
  const p = percentiles(ms);
  const f = (v: number) => v.toFixed(3).padStart(8);
  return `| ${what.padEnd(44)} | ${String(p.n).padStart(6)} | ${f(p.p50)} | ${f(p.p95)} | ${f(p.p99)} | ${f(p.max)} | ${(p.p95 / CEILING_MS).toFixed(3).padStart(6)} |`;
};

const stack = await GeocodingApiStack.create('bench_legal_land');
try {
  await stack.start();
  const wells = ['wells-ab-st37.csv', 'wells-sk-st37.csv', 'wells-bc.csv'];
  const energy = await stack.publishSpecAndEnable(await prepareEnergyRelease({ wells: wells.map((f) => repoPath('samples', 'energy', f)), facilities: [] }));
  const parcels = await stack.publishSpecAndEnable(await prepareParcelsRelease([repoPath('samples', 'parcels', 'parcels-abbotsford.csv')]));
  await stack.waitForRelease(energy.id, 30_000, ENERGY_KIND);
  await stack.waitForRelease(parcels.id, 30_000, PARCELS_KIND);

  const land = generatedCases(cells, seed).map((c) => c.query);
  const records = [
    ...wells.flatMap((f) => column(`energy/${f}`, 'UWI')),
    ...column('parcels/parcels-abbotsford.csv', 'PID_FORMATTED'),
    ...generatedRecordIds(200, seed).map((c) => c.query),
  ];
  const queries = [...land, ...records];
  const scope: GrammarScope = { layers: null, limit: 10, geometry: false };
  const releases = stack.server!.app.releases;

  // Engine: parse, locate, answer (warmed once first).
  const engineMs: Record<string, number[]> = { dls: [], nts: [], uwi: [], pid: [] };
  let hits = 0;
  await releases.use(ENERGY_KIND, async (energyCorpus: RecordSources['energy']) => releases.use(PARCELS_KIND, async (parcelCorpus: RecordSources['parcels']) => {
    const sources = { energy: energyCorpus!, parcels: parcelCorpus! };
    for (const q of queries) grammarSearch(parseGrammarQuery(q)!, scope, sources);
    for (const q of queries) {
      const t = performance.now();
      const parsed = parseGrammarQuery(q)!;
      const results = grammarSearch(parsed, scope, sources);
      engineMs[parsed.grammar]!.push(performance.now() - t);
      if (results.length > 0 && corpusOf(parsed) !== null) hits += 1;
    }
  }));
  const random = seededRandom(seed);
  const reverseMs: number[] = [];
  for (let i = 0; i < reverseCount; i++) {
    const [lng, lat] = random() < 0.7 ? [-119.5 + random() * 22, 49 + random() * 10.9] : [-131 + random() * 11, 48.5 + random() * 11];
    const t = performance.now();
    legalLandAt(lng, lat, { limit: 10, geometry: true });
    reverseMs.push(performance.now() - t);
  }

  // Full stack, one request at a time.
  const httpMs: number[] = [];
  for (const q of queries.slice(0, 200)) await stack.get(`/geocode/search?q=${encodeURIComponent(q)}`);
  for (const q of queries) {
    const t = performance.now();
    const res = await stack.get(`/geocode/search?q=${encodeURIComponent(q)}`);
    httpMs.push(performance.now() - t);
    if (res.status !== 200) throw new Error(`${q}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const reverseHttpMs: number[] = [];
  for (let i = 0; i < Math.min(reverseCount, 1000); i++) {
    const [lng, lat] = [-119.5 + random() * 22, 49 + random() * 10.9];
    const t = performance.now();
    await stack.get(`/geocode/reverse?lon=${lng.toFixed(5)}&lat=${lat.toFixed(5)}&layers=legal_land`);
    reverseHttpMs.push(performance.now() - t);
  }

  console.log(`legal-land parse-and-locate: ${queries.length} queries (${land.length} DLS/NTS spellings, ${records.length} UWIs and PIDs: ${hits} hits); Node ${process.version}`);
  console.log(`milliseconds; last column: p95 / the ${CEILING_MS} ms ceiling (≤ 1 meets it)\n`);
  console.log('| what | n | p50 | p95 | p99 | max | p95/ceiling |');
  console.log('|---|---:|---:|---:|---:|---:|---:|');
  for (const [grammar, ms] of Object.entries(engineMs)) console.log(row(`engine: ${grammar} parse + locate + answer`, ms));
  console.log(row('engine: reverse (all levels, with polygons)', reverseMs));
  console.log(row('HTTP: GET /geocode/search, every query', httpMs));
  console.log(row('HTTP: GET /geocode/reverse?layers=legal_land', reverseHttpMs));
} finally {
  await stack.close();
}
