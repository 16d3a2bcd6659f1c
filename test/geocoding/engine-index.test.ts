import { mkdtemp, open, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CandidateCollector } from '../../engines/geocoding/candidates.ts';
import { assembleIndex } from '../../engines/geocoding/index/assemble.ts';
import { IndexFileError, readIndexFile, writeIndexFile } from '../../engines/geocoding/index/file.ts';
import { INDEX_ARRAY_NAMES, L_STREET } from '../../engines/geocoding/index/sections.ts';
import { IndexView } from '../../engines/geocoding/index/view.ts';
import { geocoderFromCorpus, openGeocoder } from '../../engines/geocoding/open.ts';
import { localityScope } from '../../engines/geocoding/scope.ts';
import { wordTerms } from '../../engines/geocoding/terms.ts';
import { civicKey } from '../../engines/geocoding/text/fold.ts';
import type { Geocoder } from '../../engines/geocoding/types.ts';
import type { Corpus } from '../../engines/geocoding/corpus.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

/** Index assembly invariants and the container file round trip. */
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'geocoding-engine-index-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The same questions, answered by two geocoders: must be identical. */
function answers(g: Geocoder) {
  const c = { lang: 'en', limit: 10 };
  return {
    search: ['43 Hanna Ave Toronto', '#401 43 hanna', 'main st', 'Vancuover', 'M6K 1X1', 'yvr', '47 hanna', '1000 rue sainte-catherine o'].map((q) => g.search(q, c)),
    focus: g.search('main st', { ...c, focus: { lng: -123.07, lat: 49.31 } }),
    structured: g.structured({ address: '100 Main St', city: 'North Vancouver' }, c),
    autocomplete: ['v', 'vanc', 'main st', '43 hanna a'].map((q) => g.autocomplete(q, c)),
    reverse: g.reverse({ lng: -123.1005, lat: 49.2601, lang: 'fr', limit: 8 }),
    nearby: g.nearby({ categories: ['health.pharmacy', 'transport.charging_station'], lng: -123.1005, lat: 49.2601, radius: 20000, limit: 10, lang: 'en' }),
    places: g.placesSearch('pharmacy', c),
    place: g.place('poi:yvr', 'fr'),
    categories: g.resolveCategories(['épicerie', 'pharmacies']),
    attribution: g.attribution,
  };
}

describe('index file', () => {
  it('round-trips: assemble → write → read answers exactly like the in-memory index', async () => {
    const file = path.join(dir, 'roundtrip.idx');
    await writeIndexFile(file, assembleIndex(testCorpus()));
    const fromFile = await openGeocoder(file, 'file-release');
    const inMemory = geocoderFromCorpus(testCorpus(), 'mem-release');
    expect(fromFile.releaseId).toBe('file-release');
    const a = answers(fromFile);
    expect(a).toEqual(answers(inMemory));
    expect(a.search[0]![0]!.source_id).toBe('h43');
  });

  it('lays sections out on 8-byte boundaries and lists every section in the header', async () => {
    const file = path.join(dir, 'layout.idx');
    await writeIndexFile(file, assembleIndex(testCorpus()));
    const bytes = await readFile(file);
    expect(bytes.toString('latin1', 0, 8)).toBe('CMGEOIDX');
    const header = JSON.parse(bytes.toString('utf8', 16, 16 + bytes.readUInt32LE(12))) as {
      sections: Array<{ name: string; byteOffset: number; length: number; type: string }>;
    };
    expect(header.sections.map((s) => s.name).sort()).toEqual([...INDEX_ARRAY_NAMES].sort());
    for (const s of header.sections) expect(s.byteOffset % 8).toBe(0);
    const read = await readIndexFile(file);
    expect(read.arrays.adHn).toBeInstanceOf(Uint32Array);
    expect(read.arrays.entLng).toBeInstanceOf(Float64Array);
  });

  it('refuses a file that is not an index, or is truncated', async () => {
    const notIndex = path.join(dir, 'not-index.idx');
    await writeFile(notIndex, 'hello world, this is not an index');
    await expect(readIndexFile(notIndex)).rejects.toThrow(IndexFileError);
    const full = path.join(dir, 'full.idx');
    await writeIndexFile(full, assembleIndex(testCorpus()));
    const cut = path.join(dir, 'cut.idx');
    const bytes = await readFile(full);
    await writeFile(cut, bytes.subarray(0, bytes.length - 100));
    await expect(readIndexFile(cut)).rejects.toThrow(/truncated/);
    const h = await open(cut, 'r+');
    await h.write(Buffer.from([0xff, 0xff, 0, 0]), 0, 4, 8);
    await h.close();
    await expect(readIndexFile(cut)).rejects.toThrow(/container version/);
  });
});

describe('assembled index', () => {
  const corpus = testCorpus();
  const view = new IndexView(assembleIndex(corpus));
  const a = view.a;

  it('keeps a sorted unique token dictionary, so a prefix is one id range', () => {
    for (let i = 1; i < view.tokens.length; i++) expect(view.tokens[i - 1]! < view.tokens[i]!).toBe(true);
    expect(view.tokens).toContain('hanna');
    expect(view.tokens).toContain('av');
    expect(view.tokens).not.toContain('avenue');
  });

  it('numbers rows by importance and keeps posting lists ascending', () => {
    for (let e = 1; e < view.entityCount; e++) expect(a.entImportance[e - 1]!).toBeGreaterThanOrEqual(a.entImportance[e]!);
    for (const [off, ids] of [[a.plPostOffsets, a.plPostIds], [a.stPostOffsets, a.stPostIds]] as const) {
      for (let t = 0; t < view.tokens.length; t++) {
        for (let k = off[t]! + 1; k < off[t + 1]!; k++) expect(ids[k - 1]!).toBeLessThan(ids[k]!);
      }
    }
    // Streets only in the street postings, never in the place postings.
    for (const e of a.plPostIds) expect(a.entLayer[e]).not.toBe(L_STREET);
    for (const e of a.stPostIds) expect(a.entLayer[e]).toBe(L_STREET);
  });

  it('groups address points by street whatever the corpus order, keeping order within a street', () => {
    const shuffled = reverseAddresses(corpus);
    const v2 = new IndexView(assembleIndex(shuffled));
    for (const v of [view, v2]) {
      for (let e = 0; e < v.entityCount; e++) {
        const from = v.a.entAddrStart[e]!;
        for (let p = from; p < from + v.a.entAddrCount[e]!; p++) expect(v.a.adStreet[p]).toBe(e);
      }
    }
    const g1 = geocoderFromCorpus(corpus, 'a');
    const g2 = geocoderFromCorpus(shuffled, 'b');
    for (const q of ['43 Hanna Ave', '401-43 Hanna Ave', '100 Main St Vancouver', 'M6K 1X1']) {
      expect(g2.search(q, { lang: 'en', limit: 3 })[0]!.source_id).toBe(g1.search(q, { lang: 'en', limit: 3 })[0]!.source_id);
    }
  });

  it('generates candidates from the rarest words, then scans common words for rows in a named city', () => {
    const collector = new CandidateCollector(view);
    const streetNamed = (name: string, city: string) => {
      for (let e = 0; e < view.entityCount; e++) {
        if (a.entLayer[e] === L_STREET && view.str(a.entName[e]!) === name && view.cityOf(e) === city) return e;
      }
      throw new Error(name);
    };
    const terms = wordTerms(view, ['georgia', 'main', 'vancouver'], { role: 'any', typos: false });
    const scope = localityScope(view, terms)!;
    expect([...scope].map((l) => view.str(a.entName[l]!))).toEqual(expect.arrayContaining(['Vancouver', 'West End']));
    expect(scope.size).toBeLessThan(view.localityIds.length);
    const georgia = streetNamed('West Georgia Street', 'Vancouver');
    // Cap 2: only "georgia" (1 street) is taken whole; "main" (2 streets) is scanned within the scope.
    expect(collector.collect(terms, 'streets', 2)).toEqual([georgia]);
    const scoped = collector.collect(terms, 'streets', 2, scope);
    expect(scoped).toEqual(expect.arrayContaining([georgia, streetNamed('Main Street', 'Vancouver')]));
    for (const e of scoped) if (e !== georgia) expect(scope.has(a.entLocality[e]!)).toBe(true);
    const toronto = wordTerms(view, ['georgia', 'main', 'toronto'], { role: 'any', typos: false });
    expect(collector.collect(toronto, 'streets', 2, localityScope(view, toronto))).toEqual([georgia]);
    // Street types are never scanned this way: every street of a city has one.
    const weak = wordTerms(view, ['georgia', 'st', 'vancouver'], { role: 'any', typos: false });
    expect(collector.collect(weak, 'streets', 2, localityScope(view, weak))).toEqual([georgia]);
  });

  it('refuses an address whose street is not a street row', () => {
    const bad = testCorpus();
    bad.addresses.street[0] = 0; // a region row
    expect(() => assembleIndex(bad)).toThrow(/not a street row/);
  });

  it('compares house numbers and units loosely but never merges digit runs', () => {
    expect(civicKey('12 A')).toBe(civicKey('12a'));
    expect(civicKey('12-A')).toBe('12a');
    expect(civicKey('43 1/2')).toBe('431/2');
    expect(civicKey('43½')).toBe(civicKey('43 1/2'));
    expect(civicKey('43 1/2')).not.toBe(civicKey('4312'));
  });
});

function reverseAddresses(c: Corpus): Corpus {
  const a = c.addresses;
  const idx = Array.from({ length: a.count }, (_, i) => a.count - 1 - i);
  return {
    ...c,
    addresses: {
      count: a.count,
      lng: Float64Array.from(idx.map((i) => a.lng[i]!)),
      lat: Float64Array.from(idx.map((i) => a.lat[i]!)),
      street: Uint32Array.from(idx.map((i) => a.street[i]!)),
      housenumber: idx.map((i) => a.housenumber[i]!),
      unit: idx.map((i) => a.unit[i]!),
      postcode: idx.map((i) => a.postcode[i]!),
      source: Uint8Array.from(idx.map((i) => a.source[i]!)),
      sourceId: idx.map((i) => a.sourceId[i]!),
    },
  };
}
