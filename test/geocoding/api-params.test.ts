import { describe, expect, it } from 'vitest';
import type { CategoryResolution, Geocoder } from '../../engines/geocoding/types.ts';
import { sanitizeAnchor } from '../../api/params/geocoding/anchor.ts';
import { billableQueries, sanitizeBatchQueries } from '../../api/params/geocoding/batch.ts';
import { sanitizeCategoryTokens } from '../../api/params/geocoding/category.ts';
import { resolveCategoryTokens } from '../../services/geocoding/categories.ts';
import { BBOX_MESSAGE, sanitizeBbox, sanitizeLngLat } from '../../api/params/geocoding/coordinates.ts';
import { sanitizeLayers } from '../../api/params/geocoding/layers.ts';
import { sanitizeLimit, sanitizeRadius } from '../../api/params/geocoding/numbers.ts';
import { sanitizeRegion } from '../../api/params/geocoding/region.ts';
import { sanitizeSearchControls } from '../../api/params/geocoding/search-controls.ts';
import { sanitizeAddressLine, sanitizeCountry, sanitizePostalcode, sanitizeStructuredInput } from '../../api/params/geocoding/structured.ts';
import { sanitizeLang, sanitizeQ } from '../../api/params/geocoding/text.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

/*
 * The parameter sanitizers of /geocode/* and /places/* (volume 2), one by one. The routes only
 * chain them; test/geocoding-api.test.ts checks the same rules over HTTP.
 */

const errorOf = (result: { ok: boolean; error?: string }) => (result.ok ? null : result.error);

describe('sanitizeQ', () => {
  it('trims and keeps the text', () => {
    expect(sanitizeQ('  43 Hanna Ave  ')).toEqual({ ok: true, value: '43 Hanna Ave' });
  });
  it.each([[undefined], [''], ['   '], ['\t\n'], [['a', 'b']], [5]])('%j → q required', (raw) => {
    expect(errorOf(sanitizeQ(raw))).toBe('q required');
  });
  it('caps the length at 500 characters (counted as code points)', () => {
    expect(sanitizeQ('é'.repeat(500)).ok).toBe(true);
    expect(errorOf(sanitizeQ('a'.repeat(501)))).toBe('q must be at most 500 characters');
  });
});

describe('sanitizeLang', () => {
  it.each([
    [undefined, 'en'], ['', 'en'], ['fr', 'fr'], ['FR', 'fr'], ['fr-CA', 'fr'], ['en_US', 'en'], ['iu', 'iu'], [' cr ', 'cr'],
  ])('%j → %s', (raw, lang) => {
    expect(sanitizeLang(raw)).toEqual({ ok: true, value: lang });
  });
  it.each([['f'], ['french!'], ['12'], ['en-'], [['en', 'fr']]])('%j → 400 naming lang', (raw) => {
    expect(errorOf(sanitizeLang(raw))).toBe('lang must be a language code such as en or fr');
  });
});

describe('sanitizeLimit', () => {
  it.each([
    [undefined, 10], ['', 10], ['abc', 10], ['1e2', 10], ['0x10', 10], ['Infinity', 10], [['5', '6'], 10],
    ['7', 7], [' 7 ', 7], ['0', 1], ['-3', 1], ['51', 50], ['999999999999999999999', 50], ['3.9', 3], ['0.5', 1], [12, 12], [70, 50],
  ])('%j → %d (default 10)', (raw, limit) => {
    expect(sanitizeLimit(raw, 10)).toBe(limit);
  });
  it('falls back to the endpoint default', () => {
    expect(sanitizeLimit('x', 8)).toBe(8);
    expect(sanitizeLimit(undefined, 5)).toBe(5);
  });
});

describe('sanitizeRadius', () => {
  it.each([[undefined, undefined], ['10', 50], ['5000', 5000], ['1234.6', 1235], ['60000', 50000], ['-5', 50]])('%j → %j', (raw, radius) => {
    expect(sanitizeRadius(raw)).toEqual({ ok: true, value: radius });
  });
  it.each([['abc'], [''], ['1e3'], [['100', '200']]])('%j → 400 naming radius', (raw) => {
    expect(errorOf(sanitizeRadius(raw))).toBe('radius must be a number of metres (50 to 50000, default 5000)');
  });
});

describe('sanitizeBbox', () => {
  it('reads minlon,minlat,maxlon,maxlat (string or JSON numbers)', () => {
    expect(sanitizeBbox('-123.2,49.2,-123.0,49.3')).toEqual({ ok: true, value: { box: { minLon: -123.2, minLat: 49.2, maxLon: -123, maxLat: 49.3 }, empty: false } });
    expect(sanitizeBbox(' -123.2 , 49.2 ,-123 , 49.3')).toEqual({ ok: true, value: { box: { minLon: -123.2, minLat: 49.2, maxLon: -123, maxLat: 49.3 }, empty: false } });
    expect(sanitizeBbox([-123.2, 49.2, -123, 49.3])).toEqual({ ok: true, value: { box: { minLon: -123.2, minLat: 49.2, maxLon: -123, maxLat: 49.3 }, empty: false } });
  });
  it('a box with no area is valid and empty', () => {
    expect(sanitizeBbox('-123,49,-123,49.5')).toEqual({ ok: true, value: { box: { minLon: -123, minLat: 49, maxLon: -123, maxLat: 49.5 }, empty: true } });
    expect(sanitizeBbox('-123,49,-122,49')).toEqual({ ok: true, value: { box: { minLon: -123, minLat: 49, maxLon: -122, maxLat: 49 }, empty: true } });
  });
  it.each([
    [''], ['1,2,3'], ['1,2,3,4,5'], ['a,b,c,d'], ['1,2,3,NaN'], ['1,2,3,Infinity'], ['1e1,2,3,4'], ['1,,3,4'],
    ['-122,49,-123,50'], ['-123,50,-122,49'], ['-181,49,-122,50'], ['-123,-91,-122,50'], [[1, 2, 3]], [['1', '2', '3', '4']], [{}],
  ])('%j → the volume-2 message', (raw) => {
    expect(errorOf(sanitizeBbox(raw))).toBe(BBOX_MESSAGE);
  });
  it('the message is the contract text', () => {
    expect(BBOX_MESSAGE).toBe('bbox must be minlon,minlat,maxlon,maxlat with 4 finite numbers');
  });
});

describe('sanitizeLngLat', () => {
  it('reads lng,lat', () => {
    expect(sanitizeLngLat('near', '-123.1,49.28')).toEqual({ ok: true, value: { lng: -123.1, lat: 49.28 } });
    expect(sanitizeLngLat('focus', [-73.5, 45.5])).toEqual({ ok: true, value: { lng: -73.5, lat: 45.5 } });
  });
  it.each([[''], ['-123'], ['-123,49,1'], ['x,y'], ['1e1,2'], [[1]], [42]])('%j → near must be lng,lat', (raw) => {
    expect(errorOf(sanitizeLngLat('near', raw))).toBe('near must be lng,lat');
  });
  it('names the ranges when only they fail (lat,lng swapped)', () => {
    expect(errorOf(sanitizeLngLat('focus', '49.28,-123.1'))).toBe(
      'focus must be lng,lat with longitude between -180 and 180 and latitude between -90 and 90');
  });
});

describe('sanitizeLayers', () => {
  it('absent, blank or only commas: no filter', () => {
    for (const raw of [undefined, '', ' , ,']) expect(sanitizeLayers(raw)).toEqual({ ok: true, value: { corpus: 'core', layers: undefined } });
  });
  it('a comma list of core layers, case-insensitive, de-duplicated', () => {
    expect(sanitizeLayers('Address, street,address')).toEqual({ ok: true, value: { corpus: 'core', layers: ['address', 'street'] } });
    expect(sanitizeLayers(['poi', 'locality'])).toEqual({ ok: true, value: { corpus: 'core', layers: ['poi', 'locality'] } });
  });
  it('well and facility select the energy corpus', () => {
    expect(sanitizeLayers('well,facility')).toEqual({ ok: true, value: { corpus: 'energy', layers: ['well', 'facility'] } });
  });
  it('an unknown layer is named', () => {
    expect(errorOf(sanitizeLayers('address,parcel'))).toBe(
      'layers has an unknown layer "parcel"; expected address, street, locality, region, poi (or well, facility with the energy add-on)');
  });
  it('energy and core layers cannot be mixed', () => {
    expect(errorOf(sanitizeLayers('well,address'))).toBe('layers cannot mix well (energy corpus) with address');
  });
  it('structured search refuses the energy layers', () => {
    expect(errorOf(sanitizeLayers('facility', { energyAllowed: false }))).toBe(
      'layers facility is not searchable here (civic layers only: address, street, locality, region, poi)');
  });
  it('a non-string item is refused', () => {
    expect(errorOf(sanitizeLayers(['poi', 3]))).toBe('layers must be a comma-separated list of layer names');
  });
});

describe('sanitizeRegion', () => {
  it.each([
    ['BC', 'BC'], ['b.c.', 'BC'], ['British Columbia', 'BC'], ['Colombie-Britannique', 'BC'], ['québec', 'QC'], ['Quebec', 'QC'],
    ['Ont.', 'ON'], ['nunavut', 'NU'],
  ])('%s → %s', (raw, code) => {
    expect(sanitizeRegion(raw)).toEqual({ ok: true, value: code });
  });
  it('absent or blank: no filter', () => {
    expect(sanitizeRegion(undefined)).toEqual({ ok: true, value: undefined });
    expect(sanitizeRegion('  ')).toEqual({ ok: true, value: undefined });
  });
  it('an unknown region is named', () => {
    expect(errorOf(sanitizeRegion('Narnia'))).toBe(
      'region "Narnia" is not a Canadian province or territory (use a name, abbreviation or two-letter code)');
  });
});

describe('structured fields', () => {
  it('postalcode: any spacing or case → A1A 1A1; malformed → 400', () => {
    expect(sanitizePostalcode('k1a0b1')).toEqual({ ok: true, value: 'K1A 0B1' });
    expect(sanitizePostalcode(' V6B 1A1 ')).toEqual({ ok: true, value: 'V6B 1A1' });
    for (const bad of ['K1A', '12345', 'K1A 0B', 'D1A 0B1', 'K1A 0B1 X']) {
      expect(errorOf(sanitizePostalcode(bad))).toBe('postalcode must be a Canadian postal code such as K1A 0B1 (with or without the space)');
    }
  });
  it('country: CA only', () => {
    for (const ok of [undefined, '', 'CA', 'ca', 'CAN', 'Canada']) expect(sanitizeCountry(ok).ok).toBe(true);
    for (const bad of ['US', 'USA', 'France']) expect(errorOf(sanitizeCountry(bad))).toBe('country must be CA: only Canadian addresses are covered');
  });
  it('address: a civic number alone has no street name', () => {
    for (const bad of ['123', '123A', '401-43', '#4', '12 1/2', '123,', ' 55 - ']) {
      expect(errorOf(sanitizeAddressLine(bad))).toBe('address needs a street name, not only a civic number');
    }
    for (const ok of ['43 Hanna Ave', '401-43 Hanna Ave', '1 rue Sainte-Catherine', 'Main Street', '123 10th Ave']) {
      expect(sanitizeAddressLine(ok)).toEqual({ ok: true, value: ok });
    }
  });
  it('at least one of address, city, postalcode', () => {
    expect(errorOf(sanitizeStructuredInput({}))).toBe(
      'structured search needs at least one of address, city or postalcode (region alone is not enough)');
    expect(errorOf(sanitizeStructuredInput({ address: ' ', city: '' }))).toBe(
      'structured search needs at least one of address, city or postalcode (region alone is not enough)');
    expect(sanitizeStructuredInput({ city: ' Vancouver ' })).toEqual({ ok: true, value: { city: 'Vancouver' } });
    expect(sanitizeStructuredInput({ address: '43 Hanna Ave', postalcode: 'm6k1w8' })).toEqual({
      ok: true, value: { address: '43 Hanna Ave', postalcode: 'M6K 1W8' },
    });
  });
});

describe('sanitizeSearchControls', () => {
  it('defaults: lang en, limit 10, no filters', () => {
    expect(sanitizeSearchControls({})).toEqual({ ok: true, value: { controls: { lang: 'en', limit: 10 }, energy: null, empty: false } });
  });
  it('all controls, normalised', () => {
    expect(sanitizeSearchControls({ lang: 'fr-CA', limit: '80', bbox: '-124,49,-122,50', layers: 'poi', region: 'colombie-britannique', focus: '-123.1,49.2' }))
      .toEqual({
        ok: true,
        value: {
          controls: { lang: 'fr', limit: 50, bbox: { minLon: -124, minLat: 49, maxLon: -122, maxLat: 50 }, layers: ['poi'], region: 'BC', focus: { lng: -123.1, lat: 49.2 } },
          energy: null,
          empty: false,
        },
      });
  });
  it('flags an empty box and the energy corpus', () => {
    expect(sanitizeSearchControls({ bbox: '-123,49,-123,50' }).ok && sanitizeSearchControls({ bbox: '-123,49,-123,50' })).toMatchObject({ value: { empty: true } });
    expect(sanitizeSearchControls({ layers: 'well' })).toMatchObject({ ok: true, value: { energy: ['well'] } });
  });
  it('the first faulty control is named', () => {
    expect(errorOf(sanitizeSearchControls({ bbox: '1,2', region: 'Narnia' }))).toBe(BBOX_MESSAGE);
    expect(errorOf(sanitizeSearchControls({ focus: '1' }))).toBe('focus must be lng,lat');
    expect(errorOf(sanitizeSearchControls({ layers: 'roads' }))).toContain('"roads"');
  });
});

describe('category tokens', () => {
  it('1 to 8 comma-separated tokens', () => {
    expect(sanitizeCategoryTokens('pharmacy, cafe ,,')).toEqual({ ok: true, value: ['pharmacy', 'cafe'] });
    expect(errorOf(sanitizeCategoryTokens(undefined))).toBe('category required');
    expect(errorOf(sanitizeCategoryTokens(' , '))).toBe('category required');
    expect(errorOf(sanitizeCategoryTokens('a,b,c,d,e,f,g,h,i'))).toBe('category takes at most 8 comma-separated tokens');
    expect(sanitizeCategoryTokens('a,b,c,d,e,f,g,h').ok).toBe(true);
  });

  /** Just the one method resolveCategoryTokens calls, answering from a fixed table. */
  const resolver = (table: Record<string, string[]>) => ({
    resolveCategories(tokens: string[]): CategoryResolution {
      const ids: string[] = [];
      for (const token of tokens) {
        const found = table[token];
        if (!found) return { ok: false, unknownToken: token };
        for (const id of found) if (!ids.includes(id)) ids.push(id);
      }
      return { ok: true, ids };
    },
  }) as unknown as Geocoder;

  it('unknown token → unknown category "<token>"; more than 8 resolved ids → 400', () => {
    const geocoder = resolver({ pharmacy: ['health.pharmacy'], food: ['food.a', 'food.b', 'food.c', 'food.d', 'food.e'], shop: ['shop.a', 'shop.b', 'shop.c', 'shop.d'] });
    expect(resolveCategoryTokens(geocoder, ['pharmacy'])).toEqual({ ok: true, value: ['health.pharmacy'] });
    expect(errorOf(resolveCategoryTokens(geocoder, ['pharmacy', 'unicorns']))).toBe('unknown category "unicorns"');
    expect(errorOf(resolveCategoryTokens(geocoder, ['food', 'shop']))).toBe('category resolves to 9 categories; at most 8 are allowed');
  });
});

describe('sanitizeAnchor', () => {
  it('exactly one of near or bbox', () => {
    expect(errorOf(sanitizeAnchor({}))).toBe('exactly one of near or bbox required');
    expect(errorOf(sanitizeAnchor({ near: '-123,49', bbox: '-124,49,-123,50' }))).toBe('exactly one of near or bbox required');
  });
  it('near: radius default 5000, explicit one clamped', () => {
    expect(sanitizeAnchor({ near: '-123.1,49.28' })).toEqual({ ok: true, value: { lng: -123.1, lat: 49.28, radius: 5000 } });
    expect(sanitizeAnchor({ near: '-123.1,49.28', radius: '10' })).toEqual({ ok: true, value: { lng: -123.1, lat: 49.28, radius: 50 } });
    expect(sanitizeAnchor({ near: '-123.1,49.28', radius: '90000' })).toEqual({ ok: true, value: { lng: -123.1, lat: 49.28, radius: 50000 } });
    expect(errorOf(sanitizeAnchor({ near: 'abc' }))).toBe('near must be lng,lat');
    expect(errorOf(sanitizeAnchor({ near: '-123,49', radius: 'far' }))).toBe('radius must be a number of metres (50 to 50000, default 5000)');
  });
  it('bbox: its centre, with the geodesic distance to its farthest corner as radius', () => {
    const result = sanitizeAnchor({ bbox: '-123.2,49.2,-123.0,49.3' });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value.lng).toBeCloseTo(-123.1, 10);
    expect(result.value.lat).toBeCloseTo(49.25, 10);
    // The southern corners lie farther from the centre than the northern ones.
    const south = haversineMetres(-123.1, 49.25, -123.2, 49.2);
    expect(south).toBeGreaterThan(haversineMetres(-123.1, 49.25, -123.2, 49.3));
    expect(result.value.radius).toBe(Math.ceil(south));
    // 0.1° of longitude at 49.2° N ≈ 7.28 km and 0.05° of latitude ≈ 5.56 km: about 9.15 km.
    expect(result.value.radius).toBeGreaterThan(9100);
    expect(result.value.radius).toBeLessThan(9200);
  });
  it('bbox: an explicit radius beats the box, the box radius is clamped too', () => {
    expect(sanitizeAnchor({ bbox: '-123.2,49.2,-123.0,49.3', radius: '300' })).toMatchObject({ ok: true, value: { radius: 300 } });
    expect(sanitizeAnchor({ bbox: '-130,45,-110,55' })).toMatchObject({ ok: true, value: { radius: 50000 } });
    expect(sanitizeAnchor({ bbox: '-123,49,-123,49' })).toMatchObject({ ok: true, value: { lng: -123, lat: 49, radius: 50 } });
    expect(errorOf(sanitizeAnchor({ bbox: '-123,49' }))).toBe(BBOX_MESSAGE);
  });
});

describe('batch queries', () => {
  it('1 to 100 strings', () => {
    expect(sanitizeBatchQueries({ queries: ['a', ' '] })).toEqual({ ok: true, value: ['a', ' '] });
    expect(sanitizeBatchQueries({ queries: Array(100).fill('x') }).ok).toBe(true);
  });
  it.each([[{}], [{ queries: [] }], [{ queries: 'a' }], [null], [['a']], ['a']])('%j → 400', (body) => {
    expect(sanitizeBatchQueries(body)).toEqual({ ok: false, status: 400, error: 'queries must be an array of 1 to 100 strings' });
  });
  it('a non-string entry is named', () => {
    expect(sanitizeBatchQueries({ queries: ['a', 5] })).toEqual({ ok: false, status: 400, error: 'queries[1] must be a string' });
    expect(sanitizeBatchQueries({ queries: ['a', null] })).toEqual({ ok: false, status: 400, error: 'queries[1] must be a string' });
  });
  it('more than 100 → 413', () => {
    expect(sanitizeBatchQueries({ queries: Array(101).fill('x') })).toEqual({
      ok: false, status: 413, error: 'queries holds 101 entries; at most 100 per request',
    });
  });
  it('bills one call per non-blank query', () => {
    expect(billableQueries(['a', ' ', '', '\t', 'b c'])).toBe(2);
    expect(billableQueries([' '])).toBe(0);
  });
});
