import { describe, expect, it } from 'vitest';
import { geocoderFromCorpus } from '../../engines/geocoding/open.ts';
import { TAXONOMY } from '../../engines/geocoding/taxonomy.ts';
import { testCorpus } from '../support/geocoding-engine-corpus.ts';

/** Reverse, nearby, category resolution and /places on the hand-made corpus. */
const corpus = testCorpus();
const g = geocoderFromCorpus(corpus, 'test-release');

/** Independent haversine (mean earth radius 6371.0088 km). */
function haversineMetres(lng1: number, lat1: number, lng2: number, lat2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLng = (lng2 - lng1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * 6371008.8 * Math.asin(Math.sqrt(h));
}

const mainStreet = { lng: -123.1005, lat: 49.2601 };

describe('reverse', () => {
  it('answers the nearest named places with integer distances, ascending and correct to 1 m', () => {
    const rs = g.reverse({ ...mainStreet, lang: 'en', limit: 6 });
    expect(rs).toHaveLength(6);
    expect(rs[0]).toMatchObject({ layer: 'address', source_id: 'mv100', name: '100 Main Street, Vancouver', precision: 'point', match_type: 'unknown' });
    for (let i = 0; i < rs.length; i++) {
      const r = rs[i]!;
      expect(Number.isInteger(r.distance)).toBe(true);
      expect(Math.abs(r.distance! - haversineMetres(mainStreet.lng, mainStreet.lat, r.lng, r.lat))).toBeLessThanOrEqual(1);
      if (i > 0) expect(r.distance!).toBeGreaterThanOrEqual(rs[i - 1]!.distance!);
      expect(r.score).toBeUndefined();
      expect(r.match_reasons).toBeUndefined();
      expect(r.name).not.toBe('');
    }
  });

  it('skips unnamed POIs and reports precision per layer', () => {
    // The unnamed charging station lies 3 m from 100 Main Street; it is not a named place.
    const rs = g.reverse({ lng: -123.1004, lat: 49.2602, lang: 'en', limit: 3 });
    expect(rs.map((r) => r.source_id)).not.toContain('charger');
    const far = g.reverse({ lng: -100, lat: 60, lang: 'en', limit: 50 });
    const loc = far.find((r) => r.layer === 'locality')!;
    expect(loc.precision).toBe('locality');
    expect(far.map((r) => r.distance)).toEqual([...far.map((r) => r.distance!)].sort((a, b) => a - b));
  });

  it('renders names in the requested language', () => {
    const airport = g.reverse({ lng: -123.1815, lat: 49.1967, lang: 'fr', limit: 1 })[0]!;
    expect(airport).toMatchObject({ source_id: 'yvr', name: 'Aéroport international de Vancouver', distance: 0 });
  });
});

describe('nearby', () => {
  const near = (categories: string[], radius: number, limit = 10) =>
    g.nearby({ categories, ...mainStreet, radius, limit, lang: 'en' });

  it('answers POIs of the categories within the radius, nearest first, with distance and category', () => {
    const rs = near(['health.pharmacy'], 5000);
    expect(rs.map((r) => r.source_id)).toEqual(['pharm1', 'pharm2']);
    for (const r of rs) {
      expect(r).toMatchObject({ layer: 'poi', category: 'health.pharmacy', match_type: 'unknown', precision: 'point' });
      expect(r.score).toBeUndefined();
      expect(r.distance!).toBeLessThanOrEqual(5000);
      expect(Math.abs(r.distance! - haversineMetres(mainStreet.lng, mainStreet.lat, r.lng, r.lat))).toBeLessThanOrEqual(1);
    }
    expect(near(['health.pharmacy'], 50000).map((r) => r.source_id)).toEqual(['pharm1', 'pharm2', 'pharm-far']);
    expect(near(['health.pharmacy'], 50000, 1).map((r) => r.source_id)).toEqual(['pharm1']);
  });

  it('mixes categories and includes unnamed POIs', () => {
    const rs = near(['transport.charging_station', 'shop.supermarket'], 1000);
    expect(rs.map((r) => [r.source_id, r.category])).toEqual([
      ['charger', 'transport.charging_station'], ['super1', 'shop.supermarket'],
    ]);
    expect(rs[0]!.name).toBe('');
    expect(near(['transport.airport'], 1000)).toEqual([]);
  });
});

describe('resolveCategories', () => {
  it('resolves ids, id parts, names, aliases, plurals and groups; case, accents and hyphens ignored', () => {
    expect(g.resolveCategories(['health.pharmacy'])).toEqual({ ok: true, ids: ['health.pharmacy'] });
    expect(g.resolveCategories(['Pharmacies', 'PHARMACY', 'pharmacie'])).toEqual({ ok: true, ids: ['health.pharmacy'] });
    expect(g.resolveCategories(['épicerie', 'Epicerie', 'EV-Charger', 'fast-food', 'Fast_Food'])).toEqual({
      ok: true, ids: ['shop.supermarket', 'transport.charging_station', 'food.fast_food'],
    });
    expect(g.resolveCategories(['food'])).toEqual({ ok: true, ids: ['food.cafe', 'food.fast_food'] });
  });

  it('names the first unknown token as given', () => {
    expect(g.resolveCategories(['pharmacy', 'Flux Capacitor'])).toEqual({ ok: false, unknownToken: 'Flux Capacitor' });
  });

  it('works with the release taxonomy (accented grocery word → shop.supermarket)', () => {
    const real = geocoderFromCorpus({ ...testCorpus(), taxonomy: TAXONOMY }, 'real-taxonomy');
    expect(real.resolveCategories(['épicerie'])).toEqual({ ok: true, ids: ['shop.supermarket'] });
    expect(real.resolveCategories(['ev charger', 'charging station'])).toEqual({ ok: true, ids: ['transport.charging_station'] });
    expect(real.resolveCategories(['health.pharmacy'])).toEqual({ ok: true, ids: ['health.pharmacy'] });
    expect(real.hasCategories).toBe(true);
  });
});

describe('places', () => {
  const PLACE_KEYS = ['id', 'source_id', 'name', 'names', 'category', 'category_group', 'coordinates', 'address', 'distance', 'source'];

  it('finds POIs by name, never the city', () => {
    const rs = g.placesSearch('vancouver', { lang: 'en', limit: 10 });
    expect(rs.map((r) => r.source_id).sort()).toEqual(['vag', 'yvr']);
    const vag = g.placesSearch('vancouver art gallery', { lang: 'en', limit: 10 })[0]!;
    expect(vag).toEqual({
      id: 'poi:vag', source_id: 'vag', name: 'Vancouver Art Gallery', names: {}, category: 'culture.gallery', category_group: 'culture',
      coordinates: [-123.1207, 49.2829], address: { housenumber: '750', street: 'Hornby Street', city: 'Vancouver', region: 'BC' }, source: 'osm',
    });
    for (const r of rs) for (const k of Object.keys(r)) expect(PLACE_KEYS).toContain(k);
  });

  it('filters by category and bbox', () => {
    expect(g.placesSearch('vancouver', { lang: 'en', limit: 10, categories: ['transport.airport'] }).map((r) => r.source_id)).toEqual(['yvr']);
    expect(g.placesSearch('pharmacy', { lang: 'en', limit: 10, bbox: { minLon: -123.2, minLat: 49.2, maxLon: -123.05, maxLat: 49.3 } }).map((r) => r.source_id).sort()).toEqual(['pharm1', 'pharm2']);
    expect(g.placesSearch('7-Eleven', { lang: 'en', limit: 10 }).map((r) => r.source_id)).toEqual(['seven']);
  });

  it('answers nearby places as records with distance', () => {
    const rs = g.placesNearby({ categories: ['health.pharmacy'], ...mainStreet, radius: 5000, limit: 10, lang: 'en' });
    expect(rs.map((r) => r.source_id)).toEqual(['pharm1', 'pharm2']);
    expect(rs[0]).toMatchObject({ category: 'health.pharmacy', category_group: 'health', address: { housenumber: '120', street: 'Main Street' } });
    expect(Number.isInteger(rs[0]!.distance)).toBe(true);
  });

  it('looks a place up by its id; unknown, malformed and non-POI ids are undefined', () => {
    expect(g.place('poi:yvr', 'fr')).toMatchObject({ id: 'poi:yvr', name: 'Aéroport international de Vancouver', category: 'transport.airport', category_group: 'transport' });
    expect(g.place('poi:yvr', 'fr')!.distance).toBeUndefined();
    expect(g.place('poi:nope', 'en')).toBeUndefined();
    expect(g.place('', 'en')).toBeUndefined();
    expect(g.place('%%%', 'en')).toBeUndefined();
    expect(g.place('locality:vancouver', 'en')).toBeUndefined();
    expect(g.place('poi:alt-only', 'en')).toMatchObject({ name: 'ᐃᓄᒃᑎᑐᑦ Café', names: { 'en-alt1': 'Never Shown' } });
  });

  it('reports attribution, release and category support', () => {
    expect(g.releaseId).toBe('test-release');
    expect(g.attribution).toContain('© OpenStreetMap contributors');
    expect(g.attribution).toContain('OpenAddresses contributors');
    expect(g.hasCategories).toBe(true);
    expect(geocoderFromCorpus({ ...testCorpus(), taxonomy: [] }, 'x').hasCategories).toBe(false);
  });
});
