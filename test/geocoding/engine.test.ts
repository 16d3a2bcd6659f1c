import { describe, expect, it } from 'vitest';
import { geocoderFromCorpus } from '../../engines/geocoding/open.ts';
import { GeocodeQueryError, type GeocodeResult, type SearchControls } from '../../engines/geocoding/types.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

/** Query engine rules of volume 2 (search, structured, autocomplete) on a small hand-made corpus. */
const g = geocoderFromCorpus(testCorpus(), 'test-release');
const ctl = (over: Partial<SearchControls> = {}): SearchControls => ({ lang: 'en', limit: 10, ...over });
const top = (q: string, over: Partial<SearchControls> = {}) => {
  const r = g.search(q, ctl(over))[0];
  if (!r) throw new Error(`no result for ${q}`);
  return r;
};

describe('search: civic addresses', () => {
  it('answers a full address as an exact address point with its components', () => {
    const r = top('43 Hanna Ave Toronto');
    expect(r).toMatchObject({
      id: 'address:osm:h43', name: '43 Hanna Avenue, Toronto', layer: 'address', lng: -79.4196, lat: 43.6395,
      source: 'osm', source_id: 'h43', match_type: 'exact', precision: 'point',
      address: { housenumber: '43', street: 'Hanna Avenue', city: 'Toronto', region: 'ON', postcode: 'M6K 1X1', country: 'CA' },
    });
    expect(r.match_reasons).toBeUndefined();
    expect(r.names).toBeUndefined();
    expect(typeof r.score).toBe('number');
    expect(r.distance).toBeUndefined();
  });

  it.each(['401-43 Hanna Ave', 'Apt 401 43 Hanna Ave', '#401 43 Hanna Ave', '43 Hanna Ave Unit 401'])('reads the unit in %s', (q) => {
    const r = top(q);
    expect(r).toMatchObject({ source_id: 'h43-401', name: '401-43 Hanna Avenue, Toronto', match_type: 'exact' });
    expect(r.address?.unit).toBe('401');
  });

  it('answers an unknown unit with the building point (unit_not_verified) or another unit (unit_differs)', () => {
    expect(top('#999 43 Hanna Ave')).toMatchObject({ source_id: 'h43', match_type: 'partial', match_reasons: ['unit_not_verified'] });
    expect(top('#7 51 Hanna Ave')).toMatchObject({ source_id: 'h51-1', match_type: 'partial', match_reasons: ['unit_differs'] });
  });

  it('prefers the building point when no unit is asked', () => {
    expect(top('43 Hanna Avenue')).toMatchObject({ source_id: 'h43', match_type: 'exact' });
  });

  it('checks a postcode: equal, differing, or not verifiable', () => {
    expect(top('43 Hanna Ave M6K 1X1')).toMatchObject({ source_id: 'h43', match_type: 'exact' });
    expect(top('43 Hanna Ave M6K1X2')).toMatchObject({ source_id: 'h43', match_type: 'partial', match_reasons: ['postalcode_differs'] });
    expect(top('45 Hanna Ave m6k 1x1')).toMatchObject({ source_id: 'h45', match_type: 'partial', match_reasons: ['postalcode_not_verified'] });
  });

  it('falls back to the street when the number is not on it', () => {
    const r = top('44 Hanna Ave');
    expect(r).toMatchObject({
      layer: 'street', name: 'Hanna Avenue', match_type: 'fallback', precision: 'street', match_reasons: ['housenumber_not_matched'],
      address: { street: 'Hanna Avenue', city: 'Toronto', region: 'ON', country: 'CA' },
    });
    expect(r.address?.housenumber).toBeUndefined();
  });

  it('offers a number with another suffix as housenumber_differs', () => {
    expect(top('47 Hanna Ave')).toMatchObject({ source_id: 'h47a', match_type: 'partial', match_reasons: ['housenumber_differs'] });
  });

  it('separates same-named streets by the city named in the query', () => {
    expect(top('100 Main St Vancouver').address).toMatchObject({ city: 'Vancouver', housenumber: '100' });
    expect(top('100 Main Street, North Vancouver').address).toMatchObject({ city: 'North Vancouver', housenumber: '100' });
    // Only North Vancouver's Main Street has a 150; the Vancouver one stands in as a fallback.
    const both = g.search('150 Main St', ctl());
    expect(both[0]).toMatchObject({ source_id: 'mn150', match_type: 'exact' });
    expect(both.find((r) => r.layer === 'street')).toMatchObject({ match_type: 'fallback', match_reasons: ['housenumber_not_matched'] });
  });

  it('biases toward a named city without constraining to it', () => {
    const r = top('Hanna Ave Burnaby');
    expect(r).toMatchObject({ layer: 'street', name: 'Hanna Avenue', match_type: 'partial', match_reasons: ['terms_unmatched'] });
  });

  it('counts a row in a neighbourhood as in the larger city around it, not the other way round', () => {
    // Denman Street is attached to "West End", a neighbourhood locality inside Vancouver.
    expect(top('1000 Denman St Vancouver')).toMatchObject({ source_id: 'd1000', match_type: 'exact', address: { city: 'West End' } });
    // Vancouver's Main Street lies within Burnaby's reach but belongs to the larger Vancouver.
    const r = g.search('100 Main St Burnaby', ctl()).find((x) => x.source_id === 'mv100')!;
    expect(r.match_reasons).toEqual(['terms_unmatched']);
  });

  it('matches French names, directionals and street types both ways', () => {
    const en = top('1000 rue Sainte-Catherine O Montréal');
    expect(en).toMatchObject({ source_id: 'c1000', source: 'openaddresses', match_type: 'exact', name: '1000 St. Catherine Street West, Montréal' });
    expect(top('1000 St Catherine St W Montreal', { lang: 'fr' })).toMatchObject({
      source_id: 'c1000', match_type: 'exact', name: '1000 Rue Sainte-Catherine Ouest, Montréal',
    });
    expect(top('1055 W Georgia St')).toMatchObject({ source_id: 'g1055', match_type: 'exact' });
  });

  it('never returns a street or city standing in for an address as exact', () => {
    for (const r of g.search('9999 Main St Vancouver', ctl())) {
      if (r.layer !== 'address' && r.layer !== 'poi') expect(r.match_type).toBe('fallback');
    }
  });
});

describe('search: places, names and scores', () => {
  it('ranks the exactly named city first', () => {
    const rs = g.search('Vancouver', ctl());
    expect(rs[0]).toMatchObject({ layer: 'locality', name: 'Vancouver', match_type: 'exact', precision: 'locality', source: 'geonames' });
    expect(rs.map((r) => r.name)).toContain('North Vancouver');
    expect(rs[0]!.score!).toBeGreaterThan(rs[1]!.score!);
    for (let i = 1; i < rs.length; i++) expect(rs[i - 1]!.score!).toBeGreaterThanOrEqual(rs[i]!.score!);
  });

  it('matches an alternate name (airport code) as an exact name but never shows it', () => {
    const r = top('YVR');
    expect(r).toMatchObject({ source_id: 'yvr', match_type: 'exact', name: 'Vancouver International Airport' });
    expect(r.names).toMatchObject({ 'en-iata': 'YVR', fr: 'Aéroport international de Vancouver' });
  });

  it('orders names: lang, French for fr, default, names.en, any other label; alternates skipped', () => {
    expect(top('YVR', { lang: 'fr' }).name).toBe('Aéroport international de Vancouver');
    expect(top('YVR', { lang: 'de' }).name).toBe('Vancouver International Airport');
    expect(top('YVR', { lang: 'en-iata' }).name).toBe('Vancouver International Airport');
    // No default name, no English: the French label.
    expect(top('olimpico', { lang: 'en' })).toMatchObject({ name: 'Café Olimpico', names: { fr: 'Café Olimpico', 'fr-alt1': 'Olimpico' } });
    // en-alt1 is never a name; the Inuktitut label is.
    expect(top('never shown')).toMatchObject({ source_id: 'alt-only', name: 'ᐃᓄᒃᑎᑐᑦ Café' });
    expect(top('Montreal', { lang: 'fr' }).name).toBe('Montréal');
    expect(top('Montreal', { lang: 'en' }).name).toBe('Montreal');
  });

  it('reads a leading number that belongs to a name as part of it', () => {
    const r = top('7-Eleven');
    expect(r).toMatchObject({ source_id: 'seven', match_type: 'exact', layer: 'poi', precision: 'point' });
    expect(r.category).toBeUndefined();
  });

  it('returns [] when nothing matches (never a guessed centroid)', () => {
    expect(g.search('xyzzy qwertz', ctl())).toEqual([]);
    expect(g.search('12 Zzyzx Road', ctl())).toEqual([]);
  });
});

describe('search: typos', () => {
  it('tolerates one edit from 4 characters and two from 8, reporting fuzzy_match', () => {
    expect(top('Vancuover')).toMatchObject({ name: 'Vancouver', layer: 'locality', match_type: 'partial', match_reasons: ['fuzzy_match'] });
    expect(top('Vanncouvr')).toMatchObject({ name: 'Vancouver', match_reasons: ['fuzzy_match'] });
    expect(top('43 Hannah Ave')).toMatchObject({ source_id: 'h43', match_type: 'partial', match_reasons: ['fuzzy_match'] });
  });

  it('counts a swap of neighbouring letters as one edit, also in street types', () => {
    expect(top('43 Hnana Ave')).toMatchObject({ source_id: 'h43', match_reasons: ['fuzzy_match'] });
    expect(top('43 Hanna Aveneu')).toMatchObject({ source_id: 'h43', match_reasons: ['fuzzy_match'] });
    expect(top('43 Hanna Stret', { layers: ['street'] })).toMatchObject({ name: 'Hanna Avenue', match_reasons: ['housenumber_not_matched', 'terms_unmatched'] });
  });

  it('also reads a rare word of the data as a typo of a common one', () => {
    // "Vancovuer" is the name of one café; the city is the likelier meaning.
    const rs = g.search('Vancovuer', ctl());
    expect(rs.find((r) => r.source_id === 'typo-cafe')).toMatchObject({ match_type: 'exact' });
    expect(rs.find((r) => r.layer === 'locality' && r.name === 'Vancouver')).toMatchObject({ match_type: 'partial', match_reasons: ['fuzzy_match'] });
  });

  it('does not stretch short words or beyond the edit budget', () => {
    expect(g.search('Burnabi', ctl())[0]).toMatchObject({ name: 'Burnaby' });
    expect(g.search('Brnbi', ctl())).toEqual([]);
    expect(g.search('Hna Ave', ctl()).some((r) => r.name.includes('Hanna'))).toBe(false);
  });
});

describe('search: regions, filters and focus', () => {
  it('marks rows contradicting a province named in the query (region_differs) or silent about it', () => {
    const rs = g.search('Main St Vancouver ON', ctl());
    const street = rs.find((r) => r.layer === 'street')!;
    expect(street.match_type).toBe('partial');
    expect(street.match_reasons).toContain('region_differs');
    expect(top('9 Nowhere Road BC')).toMatchObject({ source_id: 'n9', match_type: 'partial', match_reasons: ['region_not_verified'] });
    expect(top('Main St Vancouver BC')).toMatchObject({ layer: 'street', match_type: 'exact', address: { city: 'Vancouver' } });
  });

  it('applies the region parameter as a hard filter that keeps rows silent about it', () => {
    const rs = g.search('main st', ctl({ region: 'ON' }));
    expect(rs.length).toBeGreaterThan(0);
    expect(rs.every((r) => r.address?.region === 'ON' || r.address?.region === undefined)).toBe(true);
    expect(rs.some((r) => r.name === 'Main Street')).toBe(false);
    expect(top('nowhere road', { region: 'BC' })).toMatchObject({ layer: 'street', match_reasons: ['region_not_verified'] });
  });

  it('applies bbox and layers as hard filters; contradictory filters give []', () => {
    const northVanBox = { minLon: -123.09, minLat: 49.30, maxLon: -123.05, maxLat: 49.33 };
    const inBox = g.search('main st', ctl({ bbox: northVanBox }));
    expect(inBox.map((r) => r.address?.city)).toEqual(['North Vancouver']);
    expect(g.search('main st', ctl({ bbox: northVanBox, region: 'ON' }))).toEqual([]);
    expect(g.search('main st', ctl({ bbox: { minLon: -123, minLat: 49, maxLon: -124, maxLat: 50 } }))).toEqual([]);
    expect(g.search('vancouver', ctl({ layers: ['poi'] })).every((r) => r.layer === 'poi')).toBe(true);
    expect(g.search('vancouver', ctl({ layers: ['poi'] })).length).toBeGreaterThan(0);
    expect(g.search('hanna ave', ctl({ layers: ['address'] }))).toEqual([]);
    expect(g.search('43 hanna ave', ctl({ layers: ['street'] }))[0]).toMatchObject({ layer: 'street', match_type: 'fallback' });
  });

  it('prefers rows near focus without excluding the others', () => {
    const nearNorth = g.search('main st', ctl({ focus: { lng: -123.07, lat: 49.312 }, layers: ['street'] }));
    const nearVan = g.search('main st', ctl({ focus: { lng: -123.10, lat: 49.26 }, layers: ['street'] }));
    expect(nearNorth.map((r) => r.address?.city)).toEqual(['North Vancouver', 'Vancouver']);
    expect(nearVan.map((r) => r.address?.city)).toEqual(['Vancouver', 'North Vancouver']);
  });

  it('limits the answer', () => {
    expect(g.search('vancouver', ctl({ limit: 2 }))).toHaveLength(2);
  });
});

describe('search: postal codes and delivery terms', () => {
  it('answers a postal code alone with its address points, nearest to its centroid first', () => {
    for (const q of ['M6K 1X1', 'm6k1x1', ' M6K-1X1 ']) {
      const rs = g.search(q, ctl());
      expect(rs.map((r) => r.source_id).sort()).toEqual(['h43', 'h43-401', 'h43-402']);
      expect(rs.every((r) => r.match_type === 'exact' && r.precision === 'point' && r.address?.postcode === 'M6K 1X1')).toBe(true);
      // Centroid is the middle point (h43-401).
      expect(rs[0]!.source_id).toBe('h43-401');
    }
    expect(g.search('K1A 0B1', ctl())).toEqual([]);
    expect(g.search('V5T 3E1 Vancouver BC', ctl()).map((r) => r.source_id)).toEqual(['mv100']);
  });

  it('refuses a query made only of postal delivery terms', () => {
    expect(() => g.search('PO Box 123', ctl())).toThrow(GeocodeQueryError);
    expect(() => g.search('General Delivery', ctl())).toThrow('query has only postal delivery terms; add a community');
    expect(() => g.search('RR 2 BC', ctl())).toThrow(GeocodeQueryError);
  });

  it('answers a rural route with its community, as a fallback', () => {
    expect(g.search('RR 2 Burnaby BC', ctl())).toEqual([expect.objectContaining({ name: 'Burnaby', layer: 'locality', match_type: 'fallback' })]);
  });
});

describe('structured', () => {
  const s = (input: Parameters<typeof g.structured>[0], over: Partial<SearchControls> = {}) => g.structured(input, ctl(over));

  it('retrieves with address and city', () => {
    expect(s({ address: '43 Hanna Ave', city: 'Toronto' })[0]).toMatchObject({ source_id: 'h43', match_type: 'exact' });
    expect(s({ address: '100 Main St', city: 'North Vancouver' })[0]).toMatchObject({ source_id: 'mn100', match_type: 'exact' });
    expect(s({ address: '401-43 Hanna Avenue' })[0]).toMatchObject({ source_id: 'h43-401', match_type: 'exact' });
  });

  it('narrows by postcode: a contradicting point is dropped, a silent one kept', () => {
    const dropped = s({ address: '43 Hanna Ave', postalcode: 'M6K1X2' });
    expect(dropped.some((r) => r.layer === 'address')).toBe(false);
    expect(dropped[0]).toMatchObject({ layer: 'street', match_type: 'fallback', match_reasons: ['housenumber_not_matched'] });
    expect(s({ address: '45 Hanna Ave', postalcode: 'M6K 1X1' })[0]).toMatchObject({ source_id: 'h45', match_type: 'partial', match_reasons: ['postalcode_not_verified'] });
    expect(s({ address: '43 Hanna Ave', postalcode: 'm6k 1x1' })[0]).toMatchObject({ source_id: 'h43', match_type: 'exact' });
  });

  it('narrows by region: contradicting rows dropped, silent rows marked', () => {
    expect(s({ city: 'Vancouver' }, { region: 'ON' })).toEqual([]);
    expect(s({ city: 'Vancouver' }, { region: 'BC' })[0]).toMatchObject({ layer: 'locality', name: 'Vancouver', match_type: 'exact' });
    expect(s({ address: '9 Nowhere Road' }, { region: 'BC' })[0]).toMatchObject({ source_id: 'n9', match_reasons: ['region_not_verified'] });
  });

  it('answers a city alone with the locality, a postcode alone with its points', () => {
    expect(s({ city: 'Burnaby' })).toEqual([expect.objectContaining({ layer: 'locality', name: 'Burnaby', match_type: 'exact' })]);
    expect(s({ postalcode: 'V7M1A1' }).map((r) => r.source_id).sort()).toEqual(['mn100', 'mn150']);
  });

  it('lets the city stand in (fallback) when the street is unknown', () => {
    expect(s({ address: '999 Nothing Rd', city: 'Burnaby' })[0]).toMatchObject({ layer: 'locality', name: 'Burnaby', match_type: 'fallback' });
    expect(s({ address: '999 Nothing Rd' })).toEqual([]);
  });
});

describe('autocomplete', () => {
  const ac = (q: string, limit = 8) => g.autocomplete(q, { lang: 'en', limit });
  const layers = (rs: GeocodeResult[]) => new Set(rs.map((r) => r.layer));

  it('answers only localities, provinces and POIs up to three characters; streets and addresses from the fourth', () => {
    for (const q of ['m', 'ma', 'mai', ' mai', 'van']) {
      const rs = ac(q);
      expect(rs.length).toBeGreaterThan(0);
      for (const l of layers(rs)) expect(['locality', 'region', 'poi']).toContain(l);
    }
    expect(layers(ac('main'))).toContain('street');
    expect(ac('43 hanna a')[0]).toMatchObject({ layer: 'address', source_id: 'h43' });
  });

  it('treats the last word as a prefix and earlier words as whole words, in any order', () => {
    expect(ac('vanc')[0]).toMatchObject({ name: 'Vancouver', layer: 'locality' });
    expect(ac('main stre').some((r) => r.layer === 'street' && r.name === 'Main Street')).toBe(true);
    expect(ac('street mai').some((r) => r.layer === 'street' && r.name === 'Main Street')).toBe(true);
    expect(ac('mai street')).toEqual([]);
    expect(ac('sainte-cath').some((r) => r.name === 'St. Catherine Street West')).toBe(true);
    expect(ac('montré')[0]).toMatchObject({ name: 'Montreal' });
    expect(ac('boulevard', 8)).toEqual([]);
  });

  it('has no typo tolerance, no match metadata, and a score', () => {
    expect(ac('vancuover')).toEqual([]);
    for (const r of ac('vanc')) {
      expect(r.match_type).toBe('unknown');
      expect(r.match_reasons).toBeUndefined();
      expect(typeof r.score).toBe('number');
    }
  });

  it('returns [] for input without letters or digits, and honours limit', () => {
    expect(ac(' -- ')).toEqual([]);
    expect(ac('v', 2)).toHaveLength(2);
  });

  it('ranks by term match and prominence only (a more prominent partial name beats a small exact one)', () => {
    // "North Vancouver" names a smaller place than "Vancouver": Vancouver first for "vancouver".
    const rs = ac('vancouver');
    expect(rs[0]!.name).toBe('Vancouver');
    // Region context: "vancouver b" keeps BC rows.
    expect(ac('vancouver b')[0]!.name).toBe('Vancouver');
  });

  it('matches a city being typed as the row context', () => {
    expect(ac('main street north van')[0]).toMatchObject({ layer: 'street', name: 'Main Street', address: { city: 'North Vancouver' } });
    expect(ac('100 main st north vanc')[0]).toMatchObject({ layer: 'address', source_id: 'mn100' });
    expect(ac('main street toro')).toEqual([]);
  });
});
