import { describe, expect, it } from 'vitest';
import { geocoderFromCorpus } from '../../engines/geocoding/open.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

/**
 * A POI with no name of its own (named: false) carries its category's display name: it is found
 * by nearby and /places/nearby, never by name search, autocomplete, /places/search or reverse.
 */
const corpus = testCorpus();
const van = corpus.places.findIndex((p) => p.layer === 'locality' && p.name === 'Vancouver');
const base = { source: 'osm', prominence: 10, region: 'BC', locality: van, city: 'Vancouver', housenumber: null, street: null, postcode: null };
corpus.places.push(
  { ...base, layer: 'poi', sourceId: 'unnamed-charger', id: 'poi:osm:unnamed-charger', name: 'Charging station',
    names: { en: 'Charging station', fr: 'Borne de recharge' }, named: false, category: 'transport.charging_station', lng: -123.0900, lat: 49.2650 },
  { ...base, layer: 'poi', sourceId: 'named-charger', id: 'poi:osm:named-charger', name: 'Charging Station Plaza',
    names: {}, category: 'transport.charging_station', lng: -123.0905, lat: 49.2655 },
);
const g = geocoderFromCorpus(corpus, 'test-release');
const at = { lng: -123.0901, lat: 49.2651 };
const ids = (rs: { source_id?: string; id?: string }[]) => rs.map((r) => r.source_id ?? r.id);

describe('unnamed POIs', () => {
  it('are never found by name: search, autocomplete and /places/search find only the named one', () => {
    for (const q of ['Charging station', 'charging station vancouver', 'Borne de recharge']) {
      expect(ids(g.search(q, { lang: 'en', limit: 10 }))).not.toContain('unnamed-charger');
    }
    expect(ids(g.search('Charging Station Plaza', { lang: 'en', limit: 10 }))).toContain('named-charger');
    for (const q of ['Charg', 'Charging sta', 'Borne de rech']) {
      expect(ids(g.autocomplete(q, { lang: 'en', limit: 10 }))).not.toContain('unnamed-charger');
    }
    expect(ids(g.autocomplete('Charging sta', { lang: 'en', limit: 10 }))).toContain('named-charger');
    expect(g.placesSearch('Charging station', { lang: 'en', limit: 10 }).map((r) => r.id)).not.toContain('poi:osm:unnamed-charger');
    expect(g.placesSearch('Charging station', { lang: 'en', limit: 10 }).map((r) => r.id)).toContain('poi:osm:named-charger');
  });

  it('are found by nearby and /places/nearby under their category name', () => {
    const input = { ...at, categories: ['transport.charging_station'], radius: 500, limit: 10, lang: 'en' };
    const near = g.nearby(input);
    expect(near[0]).toMatchObject({ source_id: 'unnamed-charger', name: 'Charging station' });
    expect(ids(near)).toContain('named-charger');
    expect(g.placesNearby(input).map((r) => r.id)).toContain('poi:osm:unnamed-charger');
  });

  it('are not among the nearest named places of reverse', () => {
    const rs = g.reverse({ ...at, lang: 'en', limit: 20 });
    expect(ids(rs)).toContain('named-charger');
    expect(ids(rs)).not.toContain('unnamed-charger');
  });
});
