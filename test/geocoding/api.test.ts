import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RegisteredRelease } from '../../releases/registry.ts';
import { CAFE_COUNT, testCorpus, VANCOUVER } from '../support/geocoding-corpus.ts';
import { GeocodingApiStack } from '../support/geocoding-api-stack.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';

/*
 * /geocode/* and /places/* over HTTP (auth, validation, release store, engine), against a
 * geocoding release published from the hand-written corpus of support/geocoding-corpus.ts and
 * read through the kind's opener. Every parameter rule, default, clamp and error of volume 2.
 */

interface Result {
  id: string; name: string; layer: string; lng: number; lat: number; score?: number; distance?: number; category?: string;
  match_type: string; precision: string; source: string; source_id: string; address?: Record<string, string>;
}
interface Place {
  id: string; source_id: string; name: string; names: Record<string, string>; category: string; category_group: string;
  coordinates: [number, number]; address?: Record<string, string>; distance?: number; source: string;
}

let stack: GeocodingApiStack;
let release: RegisteredRelease;
const qs = (params: Record<string, string>) => new URLSearchParams(params).toString();
const BBOX_MESSAGE = 'bbox must be minlon,minlat,maxlon,maxlat with 4 finite numbers';
const UNAVAILABLE = { error: 'geocode temporarily unavailable', code: 'service_unavailable', retryable: true };

/** Every GET endpoint with parameters that pass validation. */
const VALID_GETS = [
  '/geocode/search?q=Vancouver',
  '/geocode/structured?city=Vancouver',
  '/geocode/autocomplete?q=van',
  '/geocode/nearby?category=cafe&near=-123.12,49.28',
  '/geocode/reverse?lon=-123.12&lat=49.28',
  '/places/search?q=bean',
  '/places/nearby?category=cafe&near=-123.12,49.28',
  '/places/poi%3Aosm%3An100',
];

beforeAll(async () => {
  stack = await GeocodingApiStack.create('geocoding_api');
  await stack.start();
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('without a geocoding release', () => {
  it.each(VALID_GETS)('GET %s → 503 geocode temporarily unavailable, retryable', async (url) => {
    const res = await stack.get(url);
    expect(res.status).toBe(503);
    expect(res.body).toEqual(UNAVAILABLE);
    expect(res.headers['retry-after']).toBe('5');
  });

  it('POST /geocode/batch → 503 too', async () => {
    const res = await stack.post('/geocode/batch', { queries: ['Vancouver'] });
    expect(res.status).toBe(503);
    expect(res.body).toEqual(UNAVAILABLE);
  });

  it('parameter faults are still 400 first', async () => {
    expect((await stack.get('/geocode/search')).body).toEqual({ error: 'q required' });
    expect((await stack.get('/geocode/search')).status).toBe(400);
  });
});

describe('with a geocoding release', () => {
  beforeAll(async () => {
    release = await stack.publishAndEnable(testCorpus());
    await stack.waitForRelease(release.id);
  }, 120_000);

  describe('authentication', () => {
    it.each([...VALID_GETS])('GET %s without a key → 401', async (url) => {
      const res = await stack.get(url, { key: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'missing API key', code: 'unauthorized' });
    });
    it('POST /geocode/batch without a key → 401', async () => {
      const res = await stack.post('/geocode/batch', { queries: ['x'] }, { key: null });
      expect(res.status).toBe(401);
    });
    it('an unknown key → 401', async () => {
      expect((await stack.get('/geocode/search?q=Vancouver', { key: 'cmk_nope' })).status).toBe(401);
    });
  });

  describe('GET /geocode/search', () => {
    it.each([[''], ['?q='], ['?q=%20%20'], ['?lang=fr']])('%s → 400 q required', async (query) => {
      const res = await stack.get(`/geocode/search${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'q required' });
    });

    it('finds a city by name, with the result fields of volume 2', async () => {
      const res = await stack.get('/geocode/search?q=Vancouver');
      expect(res.status).toBe(200);
      const [first] = res.body as Result[];
      expect(first).toMatchObject({ id: 'locality:geonames:6173331', name: 'Vancouver', layer: 'locality', source: 'geonames', source_id: '6173331' });
      expect(first!.lng).toBeCloseTo(VANCOUVER.lng, 6);
      expect(typeof first!.score).toBe('number');
      expect(first!.distance).toBeUndefined();
    });

    it('finds an address with its unit-civic form', async () => {
      const res = await stack.get(`/geocode/search?${qs({ q: '401-43 Hanna Ave Toronto' })}`);
      expect(res.status).toBe(200);
      expect((res.body as Result[])[0]).toMatchObject({ layer: 'address', address: expect.objectContaining({ housenumber: '43' }) });
    });

    it('limit: default 10, clamped to 1..50, non-numeric → default', async () => {
      const count = async (limit?: string) =>
        ((await stack.get(`/geocode/search?${qs({ q: 'Bean Café', ...(limit === undefined ? {} : { limit }) })}`)).body as Result[]).length;
      expect(await count()).toBe(10);
      expect(await count('3')).toBe(3);
      expect(await count('0')).toBe(1);
      expect(await count('-5')).toBe(1);
      expect(await count('100')).toBe(50);
      expect(await count('abc')).toBe(10);
      expect(await count('1e2')).toBe(10);
      expect(await count('')).toBe(10);
    });

    it.each([
      ['1,2,3'], ['a,b,c,d'], ['1,2,3,4,5'], ['-122,49,-123,50'], ['-123,50,-122,49'], ['-200,49,-122,50'], ['1,2,3,Infinity'], [''],
    ])('bbox=%s → 400 with the volume-2 message', async (bbox) => {
      const res = await stack.get(`/geocode/search?${qs({ q: 'Bean Café', bbox })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: BBOX_MESSAGE });
    });

    it('bbox is a hard filter; an empty box returns []', async () => {
      const inside = (await stack.get(`/geocode/search?${qs({ q: 'Bean Café', bbox: '-123.2,49.2,-123.0,49.3', limit: '50' })}`)).body as Result[];
      expect(inside.length).toBe(50);
      for (const r of inside) expect(r.lng >= -123.2 && r.lng <= -123.0 && r.lat >= 49.2 && r.lat <= 49.3).toBe(true);
      expect((await stack.get(`/geocode/search?${qs({ q: 'Bean Café', bbox: '-79.6,43.5,-79.2,43.8' })}`)).body).toEqual([]);
      const empty = await stack.get(`/geocode/search?${qs({ q: 'Vancouver', bbox: `${VANCOUVER.lng},49,${VANCOUVER.lng},50` })}`);
      expect(empty.status).toBe(200);
      expect(empty.body).toEqual([]);
    });

    it('layers: a hard filter; an unknown value is named', async () => {
      const all = (await stack.get(`/geocode/search?${qs({ q: 'Granville' })}`)).body as Result[];
      expect(new Set(all.map((r) => r.layer))).toEqual(new Set(['poi', 'street']));
      const pois = (await stack.get(`/geocode/search?${qs({ q: 'Granville', layers: 'poi' })}`)).body as Result[];
      expect(pois.map((r) => r.name)).toEqual(['Granville Grocery']);
      const streets = (await stack.get(`/geocode/search?${qs({ q: 'Granville', layers: 'Street,street' })}`)).body as Result[];
      expect(streets.length).toBeGreaterThan(0);
      expect(streets.every((r) => r.layer === 'street')).toBe(true);
      const res = await stack.get(`/geocode/search?${qs({ q: 'Vancouver', layers: 'poi,roads' })}`);
      expect(res.status).toBe(400);
      expect(res.body.error).toContain('"roads"');
      expect(res.body.error).toMatch(/^layers /);
    });

    it('layers=well or facility: 403 addon_required for an account without the energy add-on', async () => {
      const key = await stack.createKey({ plan: 'indie' });
      const res = await stack.get(`/geocode/search?${qs({ q: '100/01-02-003-04W5/0', layers: 'well' })}`, { key });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        error: 'addon-energy required',
        code: 'addon_required',
        capability: 'energy',
        addon: 'addon-energy',
        message: 'Well and facility search needs the energy add-on (addon-energy) on this account.',
      });
    });

    it('layers=well or facility with the add-on or a key without account, and no energy release: 503, retryable', async () => {
      const withAddon = await stack.createKey({ plan: 'growth', addons: ['energy'] });
      for (const key of [withAddon, stack.key]) {
        const res = await stack.get(`/geocode/search?${qs({ q: 'Suncor Base Plant', layers: 'facility' })}`, { key });
        expect(res.status).toBe(503);
        expect(res.body).toEqual(UNAVAILABLE);
      }
    });

    it('layers cannot mix the energy and core sets', async () => {
      const res = await stack.get(`/geocode/search?${qs({ q: 'x', layers: 'well,address' })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'layers cannot mix well (energy corpus) with address' });
    });

    it('region: any spelling; drops rows that contradict it; unknown → 400', async () => {
      const bc = (await stack.get(`/geocode/search?${qs({ q: 'Bean Café 1', region: 'Colombie-Britannique' })}`)).body as Result[];
      expect(bc.some((r) => r.name.startsWith('Bean Café'))).toBe(true);
      const on = (await stack.get(`/geocode/search?${qs({ q: 'Bean Café 1', region: 'Ont.' })}`)).body as Result[];
      expect(on.some((r) => r.name.startsWith('Bean Café'))).toBe(false);
      const res = await stack.get(`/geocode/search?${qs({ q: 'Vancouver', region: 'Narnia' })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'region "Narnia" is not a Canadian province or territory (use a name, abbreviation or two-letter code)' });
    });

    it('focus: lng,lat, malformed → 400', async () => {
      expect((await stack.get(`/geocode/search?${qs({ q: 'Vancouver', focus: '-123.1,49.3' })}`)).status).toBe(200);
      for (const focus of ['-123.1', 'a,b', '-123.1,49.3,5', '']) {
        const res = await stack.get(`/geocode/search?${qs({ q: 'Vancouver', focus })}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'focus must be lng,lat' });
      }
    });

    it('geometry=true is accepted; another value is a 400', async () => {
      expect((await stack.get('/geocode/search?q=Vancouver&geometry=true')).status).toBe(200);
      const res = await stack.get('/geocode/search?q=Vancouver&geometry=maybe');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'geometry must be true or false' });
    });

    it('a parameter given twice is a 400 naming it', async () => {
      const res = await stack.get('/geocode/search?q=a&q=b');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'q must be given once' });
    });

    it('a query the engine refuses (postal delivery terms alone) → 400 with its message', async () => {
      const res = await stack.get(`/geocode/search?${qs({ q: 'General Delivery' })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'query has only postal delivery terms; add a community' });
    });

    it('q over 500 characters → 400', async () => {
      const res = await stack.get(`/geocode/search?${qs({ q: 'a'.repeat(501) })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'q must be at most 500 characters' });
    });

    it('lang picks the rendered name', async () => {
      const fr = (await stack.get(`/geocode/search?${qs({ q: 'Granville Grocery', lang: 'fr', layers: 'poi' })}`)).body as Result[];
      expect(fr[0]!.name).toBe('Épicerie Granville');
      const res = await stack.get(`/geocode/search?${qs({ q: 'x', lang: '!!' })}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'lang must be a language code such as en or fr' });
    });
  });

  describe('GET /geocode/structured', () => {
    it('finds an address from its fields', async () => {
      const res = await stack.get(`/geocode/structured?${qs({ address: '43 Hanna Ave', city: 'Toronto', region: 'ON', postalcode: 'm6k1w8', country: 'ca' })}`);
      expect(res.status).toBe(200);
      expect((res.body as Result[])[0]).toMatchObject({ layer: 'address', address: expect.objectContaining({ housenumber: '43' }) });
    });

    it.each([
      [{}, 'structured search needs at least one of address, city or postalcode (region alone is not enough)'],
      [{ region: 'BC' }, 'structured search needs at least one of address, city or postalcode (region alone is not enough)'],
      [{ city: 'Vancouver', region: 'Atlantis' }, 'region "Atlantis" is not a Canadian province or territory (use a name, abbreviation or two-letter code)'],
      [{ postalcode: '90210' }, 'postalcode must be a Canadian postal code such as K1A 0B1 (with or without the space)'],
      [{ city: 'Vancouver', country: 'US' }, 'country must be CA: only Canadian addresses are covered'],
      [{ address: '123', city: 'Vancouver' }, 'address needs a street name, not only a civic number'],
      [{ city: 'Vancouver', layers: 'well' }, 'layers well is not searchable here (civic layers only: address, street, locality, region, poi)'],
      [{ city: 'Vancouver', bbox: '1,2' }, BBOX_MESSAGE],
      [{ city: 'Vancouver', focus: 'x' }, 'focus must be lng,lat'],
    ])('%j → 400', async (params, message) => {
      const res = await stack.get(`/geocode/structured?${qs(params as Record<string, string>)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('no match → []', async () => {
      const res = await stack.get(`/geocode/structured?${qs({ address: '9 Qwxzv Crescent', city: 'Zzyzxville' })}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([]);
    });

    it('limit as on search', async () => {
      const res = await stack.get(`/geocode/structured?${qs({ city: 'Vancouver', limit: '1' })}`);
      expect((res.body as Result[]).length).toBe(1);
    });
  });

  describe('GET /geocode/autocomplete', () => {
    it('q required', async () => {
      for (const query of ['', '?q=', '?q=%20']) {
        const res = await stack.get(`/geocode/autocomplete${query}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual({ error: 'q required' });
      }
    });

    it('limit: default 8, clamped to 1..50; other parameters are ignored', async () => {
      const count = async (extra: Record<string, string>) =>
        ((await stack.get(`/geocode/autocomplete?${qs({ q: 'bean caf', ...extra })}`)).body as Result[]).length;
      expect(await count({})).toBe(8);
      expect(await count({ limit: '100' })).toBe(50);
      expect(await count({ limit: '2' })).toBe(2);
      expect(await count({ limit: 'many' })).toBe(8);
      expect(await count({ bbox: 'not a box' })).toBe(8);
    });

    it('match_type is unknown', async () => {
      const res = await stack.get('/geocode/autocomplete?q=vanc');
      expect((res.body as Result[]).length).toBeGreaterThan(0);
      for (const r of res.body as Result[]) expect(r.match_type).toBe('unknown');
    });
  });

  describe('GET /geocode/nearby', () => {
    const near = `${VANCOUVER.lng},${VANCOUVER.lat}`;

    it('nearest first, with distance and category, within the radius', async () => {
      const res = await stack.get(`/geocode/nearby?${qs({ category: 'cafe', near })}`);
      expect(res.status).toBe(200);
      const results = res.body as Result[];
      expect(results.length).toBe(10);
      let last = -1;
      for (const r of results) {
        expect(r).toMatchObject({ category: 'food.cafe', match_type: 'unknown' });
        expect(r.score).toBeUndefined();
        expect(Number.isInteger(r.distance)).toBe(true);
        expect(r.distance!).toBeGreaterThanOrEqual(last);
        expect(Math.abs(r.distance! - haversineMetres(VANCOUVER.lng, VANCOUVER.lat, r.lng, r.lat))).toBeLessThanOrEqual(1);
        last = r.distance!;
      }
    });

    it('English and French aliases, case and accents ignored', async () => {
      const grocery = (await stack.get(`/geocode/nearby?${qs({ category: 'Épicerie', near })}`)).body as Result[];
      expect(grocery.map((r) => r.name)).toEqual(['Granville Grocery']);
      expect(grocery[0]!.category).toBe('shop.supermarket');
      const ev = (await stack.get(`/geocode/nearby?${qs({ category: 'EV charger', near })}`)).body as Result[];
      expect(ev.map((r) => r.category)).toEqual(['transport.charging_station']);
      const both = (await stack.get(`/geocode/nearby?${qs({ category: 'pharmacy,health.pharmacy,ev charger', near })}`)).body as Result[];
      expect(new Set(both.map((r) => r.category))).toEqual(new Set(['health.pharmacy', 'transport.charging_station']));
    });

    it.each([
      [{ near: '-123.12,49.28' }, 'category required'],
      [{ category: '', near: '-123.12,49.28' }, 'category required'],
      [{ category: 'unicorns', near: '-123.12,49.28' }, 'unknown category "unicorns"'],
      [{ category: 'cafe,Unicorn Farm', near: '-123.12,49.28' }, 'unknown category "Unicorn Farm"'],
      [{ category: 'a,b,c,d,e,f,g,h,i', near: '-123.12,49.28' }, 'category takes at most 8 comma-separated tokens'],
      [{ category: 'food,pharmacy', near: '-123.12,49.28' }, 'category resolves to 9 categories; at most 8 are allowed'],
      [{ category: 'cafe' }, 'exactly one of near or bbox required'],
      [{ category: 'cafe', near: '-123.12,49.28', bbox: '-124,49,-123,50' }, 'exactly one of near or bbox required'],
      [{ category: 'cafe', near: '49.28' }, 'near must be lng,lat'],
      [{ category: 'cafe', near: 'here' }, 'near must be lng,lat'],
      [{ category: 'cafe', bbox: '1,2,3' }, BBOX_MESSAGE],
      [{ category: 'cafe', near: '-123.12,49.28', radius: 'far' }, 'radius must be a number of metres (50 to 50000, default 5000)'],
    ])('%j → 400', async (params, message) => {
      const res = await stack.get(`/geocode/nearby?${qs(params as Record<string, string>)}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('radius: clamped to 50..50000; limit: default 10, clamped to 1..50', async () => {
      const within = async (params: Record<string, string>) => (await stack.get(`/geocode/nearby?${qs({ category: 'cafe', near, ...params })}`)).body as Result[];
      // Bean Café 1 stands at 0.001° east of the centre; its neighbours are 67 m and more away.
      const atCafe1 = `${VANCOUVER.lng + 0.001},${VANCOUVER.lat}`;
      const tiny = (await stack.get(`/geocode/nearby?${qs({ category: 'cafe', near: atCafe1, radius: '1', limit: '50' })}`)).body as Result[];
      expect(tiny.map((r) => [r.name, r.distance])).toEqual([['Bean Café 1', 0]]);
      const wider = (await stack.get(`/geocode/nearby?${qs({ category: 'cafe', near: atCafe1, radius: '80', limit: '50' })}`)).body as Result[];
      expect(wider.length).toBeGreaterThan(1);
      expect(wider.length).toBeLessThan(CAFE_COUNT);
      expect(wider.every((r) => r.distance! <= 80)).toBe(true);
      expect((await within({ limit: '100', radius: '999999' })).length).toBe(50);
      expect((await within({ limit: 'x' })).length).toBe(10);
      expect((await within({ limit: '0' })).length).toBe(1);
      // Toronto is 3,350 km away: even the largest radius does not reach its library.
      expect((await stack.get(`/geocode/nearby?${qs({ category: 'library', near, radius: '999999' })}`)).body).toEqual([]);
    });

    it('bbox anchors at the centre with a radius covering the box; an explicit radius beats it', async () => {
      const bbox = '-123.13,49.27,-123.11,49.29';
      const covered = (await stack.get(`/geocode/nearby?${qs({ category: 'cafe', bbox, limit: '50' })}`)).body as Result[];
      expect(covered.length).toBe(50);
      const centre = (r: Result) => haversineMetres(-123.12, 49.28, r.lng, r.lat);
      for (const r of covered) expect(Math.abs(r.distance! - centre(r))).toBeLessThanOrEqual(1);
      const tight = (await stack.get(`/geocode/nearby?${qs({ category: 'cafe', bbox, radius: '60', limit: '50' })}`)).body as Result[];
      expect(tight.length).toBeLessThan(covered.length);
      expect(tight.every((r) => r.distance! <= 60)).toBe(true);
    });
  });

  describe('GET /geocode/reverse', () => {
    it('nearest named places with distance, default 5, clamped to 50', async () => {
      const res = await stack.get(`/geocode/reverse?lon=${VANCOUVER.lng}&lat=${VANCOUVER.lat}`);
      expect(res.status).toBe(200);
      const results = res.body as Result[];
      expect(results.length).toBe(5);
      for (let i = 1; i < results.length; i++) expect(results[i]!.distance!).toBeGreaterThanOrEqual(results[i - 1]!.distance!);
      for (const r of results) expect(r.match_type).toBe('unknown');
      expect(((await stack.get(`/geocode/reverse?lon=${VANCOUVER.lng}&lat=${VANCOUVER.lat}&limit=500`)).body as Result[]).length).toBe(50);
      expect(((await stack.get(`/geocode/reverse?lon=${VANCOUVER.lng}&lat=${VANCOUVER.lat}&limit=two`)).body as Result[]).length).toBe(5);
    });

    it.each([
      ['lat=49.28', 'lon is required'],
      ['lon=-123.1', 'lat is required'],
      ['lon=abc&lat=49.28', 'lon must be a number between -180 and 180'],
      ['lon=-123.1&lat=north', 'lat must be a number between -90 and 90'],
      ['lon=-123.1&lat=91', 'lat must be a number between -90 and 90'],
      ['lon=-123.1&lat=1e1', 'lat must be a number between -90 and 90'],
      ['lon=&lat=49', 'lon must be a number between -180 and 180'],
    ])('%s → 400', async (query, message) => {
      const res = await stack.get(`/geocode/reverse?${query}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });
  });

  describe('POST /geocode/batch', () => {
    const QUERIES = ['Vancouver', 'Bean Café 7', '43 Hanna Ave Toronto', '   ', 'Hastings Pharmacy', 'qqqxzzv', 'granville st', ''];

    it('slot i equals GET /geocode/search for that string; blank slots are [] and not billed', async () => {
      const controls = { lang: 'fr', limit: '4', focus: '-123.1,49.28', region: 'BC' };
      const res = await stack.post('/geocode/batch', { queries: QUERIES, ...controls });
      expect(res.status).toBe(200);
      expect(res.headers['x-billable-queries']).toBe('6');
      const answer = res.body as Result[][];
      expect(answer.length).toBe(QUERIES.length);
      let nonEmpty = 0;
      for (const [i, q] of QUERIES.entries()) {
        if (q.trim() === '') {
          expect(answer[i]).toEqual([]);
          continue;
        }
        const single = await stack.get(`/geocode/search?${qs({ q, ...controls })}`);
        expect(single.status).toBe(200);
        expect(answer[i], q).toEqual(single.body);
        if (answer[i]!.length) nonEmpty += 1;
      }
      expect(nonEmpty).toBeGreaterThanOrEqual(3);
    });

    it('JSON forms of the controls (arrays, a number limit) answer as their query-string forms', async () => {
      const queries = ['Bean Café', 'Vancouver'];
      const res = await stack.post('/geocode/batch', { queries, limit: 20, bbox: [-123.2, 49.2, -123.0, 49.3], layers: ['poi', 'locality'] });
      expect(res.status).toBe(200);
      for (const [i, q] of queries.entries()) {
        const single = await stack.get(`/geocode/search?${qs({ q, limit: '20', bbox: '-123.2,49.2,-123.0,49.3', layers: 'poi,locality' })}`);
        expect(res.body[i]).toEqual(single.body);
      }
      expect(res.body[0].length).toBe(20);
    });

    it('more than 100 queries → 413 payload_too_large', async () => {
      const res = await stack.post('/geocode/batch', { queries: Array.from({ length: 101 }, (_, i) => `q${i}`) });
      expect(res.status).toBe(413);
      expect(res.body).toEqual({ error: 'queries holds 101 entries; at most 100 per request', code: 'payload_too_large' });
      expect((await stack.post('/geocode/batch', { queries: Array.from({ length: 100 }, () => 'Vancouver') })).status).toBe(200);
    });

    it.each([
      [{}, 'queries must be an array of 1 to 100 strings'],
      [{ queries: [] }, 'queries must be an array of 1 to 100 strings'],
      [{ queries: 'Vancouver' }, 'queries must be an array of 1 to 100 strings'],
      [['Vancouver'], 'queries must be an array of 1 to 100 strings'],
      [{ queries: ['Vancouver', 42] }, 'queries[1] must be a string'],
      [{ queries: ['Vancouver', null] }, 'queries[1] must be a string'],
      [{ queries: ['Vancouver'], bbox: '1,2,3' }, BBOX_MESSAGE],
      [{ queries: ['Vancouver'], bbox: [1, 2, 3, 'x'] }, BBOX_MESSAGE],
      [{ queries: ['Vancouver'], focus: { lng: 1 } }, 'focus must be lng,lat'],
      [{ queries: ['Vancouver'], region: 'Gondor' }, 'region "Gondor" is not a Canadian province or territory (use a name, abbreviation or two-letter code)'],
      [{ queries: ['Vancouver'], layers: 'streets' }, 'layers has an unknown layer "streets"; expected address, street, locality, region, poi (or well, facility with the energy add-on)'],
      [{ queries: ['Vancouver'], focus: [1] }, 'focus must be lng,lat'],
      [{ queries: ['ok', 'a'.repeat(501)] }, 'queries[1]: q must be at most 500 characters'],
      [{ queries: ['Vancouver', ' ', 'PO Box 12'] }, 'queries[2]: query has only postal delivery terms; add a community'],
    ])('%j → 400', async (body, message) => {
      const res = await stack.post('/geocode/batch', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: message });
    });

    it('bad JSON → the shared 400', async () => {
      const res = await stack.post('/geocode/batch', '{"queries": [', {});
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'body is not valid JSON' });
    });

    it('energy layers need the add-on here too (a paid plan without it; test/access covers the dev plan)', async () => {
      const key = await stack.createKey({ plan: 'indie' });
      const refused = await stack.post('/geocode/batch', { queries: ['x'], layers: 'well' }, { key });
      expect(refused.status).toBe(403);
      expect(refused.body.code).toBe('addon_required');
      const exempt = await stack.post('/geocode/batch', { queries: ['x', ' '], layers: 'well' });
      expect(exempt.status).toBe(503); // past the access check: no energy release is enabled here (test/grammars serves one)
      expect(exempt.body).toEqual(UNAVAILABLE);
    });
  });

  describe('/places', () => {
    const near = `${VANCOUVER.lng},${VANCOUVER.lat}`;

    it('GET /places/search: the envelope, place records, limit default 10 clamped to 50', async () => {
      const res = await stack.get('/places/search?q=bean');
      expect(res.status).toBe(200);
      expect(res.body.meta).toEqual({ attribution: expect.stringContaining('OpenStreetMap'), status: 'current' });
      const data = res.body.data as Place[];
      expect(data.length).toBe(10);
      for (const p of data) {
        expect(p).toMatchObject({ category: 'food.cafe', category_group: 'food', source: 'osm' });
        expect(p.name.startsWith('Bean Café')).toBe(true);
        expect(p.coordinates).toHaveLength(2);
        expect(p.distance).toBeUndefined();
        expect(Object.keys(p)).not.toContain('phone');
      }
      expect(((await stack.get('/places/search?q=bean&limit=100')).body.data as Place[]).length).toBe(50);
      expect(((await stack.get('/places/search?q=bean&limit=nope')).body.data as Place[]).length).toBe(10);
    });

    it('GET /places/search: returns places, not the city; filters by category and bbox', async () => {
      const city = (await stack.get('/places/search?q=Vancouver')).body.data as Place[];
      expect(city.some((p) => p.id.startsWith('locality:'))).toBe(false);
      const pharmacies = (await stack.get(`/places/search?${qs({ q: 'Hastings', category: 'pharmacie' })}`)).body.data as Place[];
      expect(pharmacies.map((p) => p.name)).toEqual(['Hastings Pharmacy']);
      expect(pharmacies[0]!.address).toEqual({ housenumber: '102', street: 'West Hastings Street', city: 'Vancouver', region: 'BC' });
      expect((await stack.get(`/places/search?${qs({ q: 'bean', bbox: '-79.6,43.5,-79.2,43.8' })}`)).body.data).toEqual([]);
      expect((await stack.get(`/places/search?${qs({ q: 'bean', bbox: '-123.2,49.28,-123.0,49.28' })}`)).body.data).toEqual([]);
    });

    it.each([
      ['/places/search', { error: 'q required' }],
      ['/places/search?q=%20', { error: 'q required' }],
      ['/places/search?q=bean&bbox=1,2', { error: BBOX_MESSAGE }],
      ['/places/search?q=bean&focus=1', { error: 'focus must be lng,lat' }],
      ['/places/search?q=bean&category=unicorns', { error: 'unknown category "unicorns"' }],
      ['/places/nearby?near=-123.12,49.28', { error: 'category required' }],
      ['/places/nearby?category=cafe', { error: 'near required (lng,lat)' }],
      ['/places/nearby?category=cafe&near=1', { error: 'near must be lng,lat' }],
      ['/places/nearby?category=dragons&near=-123.12,49.28', { error: 'unknown category "dragons"' }],
      ['/places/nearby?category=cafe&near=-123.12,49.28&radius=wide', { error: 'radius must be a number of metres (50 to 50000, default 5000)' }],
    ])('%s → 400', async (url, body) => {
      const res = await stack.get(url);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(body);
    });

    it('GET /places/nearby: nearest first with distance; radius and limit as /geocode/nearby', async () => {
      const res = await stack.get(`/places/nearby?${qs({ category: 'cafe', near })}`);
      expect(res.status).toBe(200);
      const data = res.body.data as Place[];
      expect(data.length).toBe(10);
      for (let i = 1; i < data.length; i++) expect(data[i]!.distance!).toBeGreaterThanOrEqual(data[i - 1]!.distance!);
      for (const p of data) expect(Number.isInteger(p.distance)).toBe(true);
      expect(((await stack.get(`/places/nearby?${qs({ category: 'cafe', near, limit: '99' })}`)).body.data as Place[]).length).toBe(50);
      const tight = (await stack.get(`/places/nearby?${qs({ category: 'cafe', near, radius: '5', limit: '50' })}`)).body.data as Place[];
      expect(tight.every((p) => p.distance! <= 50)).toBe(true);
    });

    it('GET /places/{id}: the record search returned, in the envelope', async () => {
      const found = ((await stack.get('/places/search?q=Hastings%20Pharmacy')).body.data as Place[])[0]!;
      const res = await stack.get(`/places/${encodeURIComponent(found.id)}`);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ data: [found], meta: { attribution: expect.any(String), status: 'current' } });
      const fr = await stack.get(`/places/${encodeURIComponent(found.id)}?lang=fr`);
      expect(fr.status).toBe(200);
    });

    it.each([
      ['unknown', '/places/poi%3Aosm%3An999999'],
      ['malformed', '/places/not-an-id!!'],
      ['another layer\'s id', '/places/locality%3Ageonames%3A6173331'],
      ['empty', '/places/'],
      ['odd characters', '/places/%00%20%C3%A9'],
      ['undecodable', '/places/%E0%A4%A'],
      ['longer than the router takes', `/places/${'x'.repeat(1100)}`],
    ])('GET /places/{id} %s → the one 404', async (_what, url) => {
      const res = await stack.get(url);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'place not found' });
    });
  });

  describe('no request is a 500', () => {
    const odd = ['%00', '%F0%9F%98%80', '%E2%80%8B', "'; DROP TABLE x;--", '..%2F..', 'a'.repeat(2000), ',,,', '-', '#', '%C3%A9%CC%81'];
    const templates = [
      '/geocode/search?q=$', '/geocode/search?q=x&bbox=$', '/geocode/search?q=x&layers=$', '/geocode/search?q=x&region=$',
      '/geocode/search?q=x&focus=$', '/geocode/search?q=x&limit=$', '/geocode/search?q=x&lang=$',
      '/geocode/structured?address=$', '/geocode/structured?city=$', '/geocode/structured?postalcode=$&city=x',
      '/geocode/autocomplete?q=$', '/geocode/nearby?category=$&near=-123,49', '/geocode/nearby?category=cafe&bbox=$',
      '/geocode/nearby?category=cafe&near=$', '/geocode/reverse?lon=$&lat=49', '/places/search?q=$', '/places/$',
      '/places/nearby?category=cafe&near=-123,49&radius=$',
    ];
    it('odd values in every parameter answer 200, 400 or 404', async () => {
      for (const template of templates) {
        for (const value of odd) {
          const url = template.replace('$', value.startsWith('%') || value.length > 100 ? value : encodeURIComponent(value));
          const res = await stack.get(url);
          expect([200, 400, 404], `${url} → ${res.status} ${res.text.slice(0, 200)}`).toContain(res.status);
        }
      }
    });
  });

  describe('/openapi.json', () => {
    it('documents the geocoding and places routes and stays a valid OpenAPI 3.1 document', async () => {
      const res = await stack.get('/openapi.json');
      expect(res.status).toBe(200);
      const result = await new Validator().validate(res.body);
      expect(result.errors).toBeUndefined();
      for (const p of ['/geocode/search', '/geocode/structured', '/geocode/autocomplete', '/geocode/nearby', '/geocode/reverse', '/places/search', '/places/nearby', '/places/{id}']) {
        expect(res.body.paths[p]?.get, p).toBeDefined();
      }
      expect(res.body.paths['/geocode/batch'].post.requestBody).toBeDefined();
      expect(res.body.paths['/geocode/search'].get.parameters.map((x: { name: string }) => x.name).sort()).toEqual(
        ['bbox', 'focus', 'geometry', 'lang', 'layers', 'limit', 'q', 'region']);
    });
  });

  describe('a release built without categories', () => {
    beforeAll(async () => {
      const bare = await stack.publishAndEnable(testCorpus({ withCategories: false }));
      await stack.waitForRelease(bare.id);
    }, 120_000);

    it.each([
      '/geocode/nearby?category=cafe&near=-123.12,49.28',
      '/places/nearby?category=cafe&near=-123.12,49.28',
      '/places/search?q=bean&category=cafe',
    ])('%s → 503, retryable', async (url) => {
      const res = await stack.get(url);
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ error: 'category search requires a corpus rebuilt with categories', retryable: true });
      expect(res.headers['retry-after']).toBe('3600');
    });

    it('the rest still answers', async () => {
      expect((await stack.get('/geocode/search?q=Vancouver')).status).toBe(200);
      expect((await stack.get('/places/search?q=bean')).status).toBe(200);
    });
  });
});
