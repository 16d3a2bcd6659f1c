// The search engine's shortcuts answer exactly as the full work would: rows whose best reachable
// score cannot enter the answer are not verified (bounded.ts), and a long context-word list is
// probed for the driver's rows instead of read whole (candidates.ts).
import { describe, expect, it } from 'vitest';
import { BestHits } from '../../engines/geocoding/bounded.ts';
import { CandidateCollector } from '../../engines/geocoding/candidates.ts';
import type { CorpusPlace } from '../../engines/geocoding/corpus.ts';
import { assembleIndex } from '../../engines/geocoding/index/assemble.ts';
import { IndexView } from '../../engines/geocoding/index/view.ts';
import { geocoderFromCorpus } from '../../engines/geocoding/open.ts';
import { localityScope } from '../../engines/geocoding/scope.ts';
import { wordTerms } from '../../engines/geocoding/terms.ts';
import { parseQuery } from '../../engines/geocoding/text/query-parse.ts';
import { indexOfSorted } from '../../engines/geocoding/index/strings.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

/** testCorpus plus chains of same-named POIs and many "Beauport …" streets in Beauport. */
function chainCorpus() {
  const corpus = testCorpus();
  const places = corpus.places;
  const base = (p: Partial<CorpusPlace> & Pick<CorpusPlace, 'layer' | 'name' | 'lng' | 'lat' | 'sourceId'>): CorpusPlace => ({
    source: 'osm', id: `${p.layer}:${p.sourceId}`, names: {}, prominence: 1, region: null, locality: null,
    city: null, category: null, housenumber: null, street: null, postcode: null, ...p,
  });
  const localities = places.map((p, i) => [p, i] as const).filter(([p]) => p.layer === 'locality');
  places.push(base({ layer: 'locality', name: 'Beauport', lng: -73.6, lat: 45.26, prominence: 8000, region: 'QC', source: 'geonames', sourceId: 'beauport' }));
  const beauport = places.length - 1;
  localities.push([places[beauport]!, beauport]);
  const chains = ['Roots', 'Tim Hortons', 'Tim Hortons Drive-Thru', 'Wendy\'s', 'Toronto Dominion Bank', 'Vancouver Roots Cafe'];
  let n = 0;
  for (const name of chains) {
    for (let k = 0; k < 24; k++) {
      const [loc, index] = localities[(k * 7 + name.length) % localities.length]!;
      places.push(base({
        // Wendy's all equally prominent: equal scores, ranked by entity.
        layer: 'poi', name, sourceId: `chain-${n++}`, category: 'food.fast_food', prominence: name === 'Wendy\'s' ? 4 : 1 + ((k * 13) % 9),
        lng: loc.lng + k * 0.001, lat: loc.lat + k * 0.001, locality: index, city: loc.name, region: loc.region,
      }));
    }
  }
  for (let k = 0; k < 40; k++) {
    places.push(base({
      layer: 'street', name: `Beauport ${['Paul', 'Jean', 'Louis', 'Marc'][k % 4]} Street ${k}`, sourceId: `beauport-${k}`, source: 'canmap',
      lng: -73.6 + k * 0.001, lat: 45.26, locality: beauport, city: 'Beauport', region: 'QC', prominence: 1 + (k % 5),
    }));
  }
  places.push(base({ layer: 'street', name: 'Rue Lajoie', sourceId: 'lajoie', source: 'canmap', lng: -73.61, lat: 45.27, locality: beauport, city: 'Beauport', region: 'QC' }));
  places.push(base({ layer: 'street', name: 'Lajoie Road', sourceId: 'lajoie-2', source: 'canmap', lng: -79.3, lat: 43.7, locality: localities[0]![1], city: localities[0]![0].name, region: 'ON' }));
  return corpus;
}

const corpus = chainCorpus();
const g = geocoderFromCorpus(corpus, 'pruning');
const WORLD = { minLon: -180, minLat: -90, maxLon: 180, maxLat: 90 };

describe('search: rows that cannot enter the answer are not verified', () => {
  // A bbox that holds every row turns the shortcut off (hits could be dropped after ranking): the
  // answers with and without it must be the same.
  it.each([
    'Roots', 'roots', 'Tim Hortons', 'tim hortons toronto', 'Tim Hortons Drive-Thru', 'Wendy\'s', 'Toronto', 'Vancouver',
    'Toronto Dominion Bank', 'Roots Vancouver', 'Vancouver Roots', 'Beauport', 'Beauport Paul Street', 'Main Street',
    'Main Street Vancouver', 'Tim Hortns', 'Rots', 'Quebec', 'Ontario', 'Roots, BC', 'Hanna Avenue Toronto', 'Rue Lajoie Beauport',
  ])('%s: the same answer as verifying every row', (q) => {
    for (const limit of [1, 3, 10, 40]) {
      const pruned = g.search(q, { lang: 'en', limit });
      const full = g.search(q, { lang: 'en', limit, bbox: WORLD });
      expect(pruned).toEqual(full);
    }
  });

  it('keeps the lowest entity among equal scores, as the answer order does', () => {
    const answer = g.search('Wendy\'s', { lang: 'en', limit: 5 });
    expect(answer).toHaveLength(5);
    expect(new Set(answer.map((r) => r.score)).size).toBe(1);
    expect(answer).toEqual(g.search('Wendy\'s', { lang: 'en', limit: 5, bbox: WORLD }));
  });
});

describe('BestHits', () => {
  it('excludes only rows that would rank after the limit-th best (score, then entity)', () => {
    const best = new BestHits(2);
    best.add({ score: 5, entity: 10 });
    expect(best.full).toBe(false);
    expect(best.excludes(0, 99)).toBe(false);
    best.add({ score: 7, entity: 3 });
    best.add({ score: 5, entity: 4 });
    expect(best.full).toBe(true);
    // The two best are (7, 3) and (5, 4).
    expect(best.excludes(4.9, 1)).toBe(true);
    expect(best.excludes(5, 5)).toBe(true);
    expect(best.excludes(5, 4)).toBe(false);
    expect(best.excludes(5, 2)).toBe(false);
    expect(best.excludes(5.1, 99)).toBe(false);
  });

  it('never excludes with a limit of 0', () => {
    const best = new BestHits(0);
    best.add({ score: 1, entity: 1 });
    expect(best.excludes(-100, 5)).toBe(false);
  });
});

describe('candidates: a long context-word list probed for the driver rows', () => {
  const view = new IndexView(assembleIndex(corpus));
  const probing = new CandidateCollector(view);
  const reading = new CandidateCollector(view, Infinity);
  const termsOf = (q: string) => {
    const parsed = parseQuery(q);
    return wordTerms(view, parsed.tokens, { role: 'any', typos: true, regions: parsed.regions });
  };

  it('the setup: "beauport" has many more street rows than "lajoie"', () => {
    const size = (word: string) => {
      const id = indexOfSorted(view.tokens, word);
      return view.a.stPostOffsets[id + 1]! - view.a.stPostOffsets[id]!;
    };
    expect(size('lajoie')).toBeGreaterThan(0);
    expect(size('beauport')).toBeGreaterThan(8 * size('lajoie'));
  });

  it.each(['Rue Lajoie Beauport', 'Lajoie Beauport', 'Lajoie Road Beauport', 'Paul Beauport', 'Lajoie Toronto', 'Main Street Vancouver'])(
    '%s: the same rows in the same order as reading every list',
    (q) => {
      const terms = termsOf(q);
      const scope = localityScope(view, terms);
      for (const set of ['places', 'streets'] as const) {
        for (const partial of [true, false]) {
          const probed = probing.collect(terms, set, 8000, scope, partial);
          const probedComplete = probing.complete;
          expect(probed).toEqual(reading.collect(terms, set, 8000, scope, partial));
          expect(probedComplete).toBe(reading.complete);
        }
      }
    },
  );
});
