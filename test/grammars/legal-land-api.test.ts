import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GeocodingApiStack } from '../support/geocoding-api-stack.ts';
import { dlsCellAt } from '../../engines/survey/dls.ts';

/*
 * Land descriptions through GET /geocode/search, /autocomplete, /reverse and POST /geocode/batch
 * over HTTP: add-on gating by the access table (volume 1 rule 4), the result members of volume 2,
 * the 400 naming the part at fault, and the hard filters. Land descriptions are computed, so no
 * release is needed (and the geocoding release is deliberately absent: civic text answers 503).
 */

interface Result {
  id: string; name: string; layer: string; lng: number; lat: number; score?: number; distance?: number; match_type: string; precision: string;
  match_reasons?: string[]; legal_land?: { system: string; province?: string; canonical: string; unit: string; components: Record<string, string | number> };
  bbox?: number[]; geometry?: { type: string; coordinates: number[][][] };
}

let stack: GeocodingApiStack;
let founder: string;
let indie: string;
let legalLand: string;
const search = (params: Record<string, string>, key?: string) => stack.get(`/geocode/search?${new URLSearchParams(params)}`, { key: key ?? founder });

beforeAll(async () => {
  stack = await GeocodingApiStack.create('legal_land_api');
  await stack.start();
  founder = stack.key;
  indie = await stack.createKey({ plan: 'indie' });
  legalLand = await stack.createKey({ plan: 'growth', addons: ['legal-land'] });
}, 120_000);

afterAll(async () => {
  await stack?.close();
});

describe('gating (volume 1 rule 4, through the capability table)', () => {
  it.each([
    ['/geocode/search?q=NW-25-24-1-W5', 'Dominion Land Survey search'],
    ['/geocode/search?q=093F10', 'NTS and BC grid search'],
    ['/geocode/autocomplete?q=04-11-082-04W6', 'Dominion Land Survey search'],
    ['/geocode/reverse?lon=-114.07&lat=51.05&layers=legal_land', 'Survey cell lookup by location'],
    ['/geocode/search?q=NW-37-24-1-W5', 'Dominion Land Survey search'],
  ])('%s without the legal-land add-on → 403 addon_required', async (url, grants) => {
    const res = await stack.get(url, { key: indie });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({
      error: 'addon-legal-land required', code: 'addon_required', capability: 'legalLand', addon: 'addon-legal-land',
      message: `${grants} needs the legal-land add-on (addon-legal-land) on this account.`,
    });
  });

  it('a batch holding one land description is refused whole', async () => {
    const res = await stack.post('/geocode/batch', { queries: ['Calgary', 'SW 1/4 11-82-4 W6M'] }, { key: indie });
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ code: 'addon_required', capability: 'legalLand' });
  });

  it('with the add-on (or a founder key) the description answers', async () => {
    for (const key of [legalLand, founder]) {
      const res = await search({ q: 'NW-25-24-1-W5' }, key);
      expect(res.status).toBe(200);
      expect((res.body as Result[]).map((r) => r.name)).toEqual(['NW-25-024-01W5']);
    }
  });

  it('civic text never needs the add-on, and structured search never detects the grammars', async () => {
    expect((await search({ q: '123 Main St' }, indie)).status).toBe(503); // no geocoding release here: reached the geocoder
    expect((await stack.get('/geocode/structured?address=NW-25-24-1-W5', { key: indie })).status).toBe(503);
  });
});

describe('GET /geocode/search with a land description', () => {
  it('answers the survey cell: legal_land members, bbox, centre inside it, score, exact', async () => {
    const res = await search({ q: '04-11-082-04W6' });
    expect(res.status).toBe(200);
    const [hit, ...rest] = res.body as Result[];
    expect(rest).toEqual([]);
    expect(hit).toMatchObject({
      id: 'legal_land:DLS:04-11-082-04W6', name: '04-11-082-04W6', layer: 'legal_land', score: 1, match_type: 'exact', precision: 'unknown',
      source: 'dls-model', source_id: '04-11-082-04W6',
      legal_land: { system: 'DLS', canonical: '04-11-082-04W6', unit: 'lsd', components: { meridian: 'W6', range: 4, township: 82, section: 11, quarter: 'SW', lsd: 4 } },
    });
    const [w, s, e, n] = hit!.bbox!;
    expect(hit!.lng).toBeGreaterThan(w!);
    expect(hit!.lng).toBeLessThan(e!);
    expect(hit!.lat).toBeGreaterThan(s!);
    expect(hit!.lat).toBeLessThan(n!);
    expect(hit!.geometry).toBeUndefined();
    expect(dlsCellAt(hit!.lng, hit!.lat, 'lsd')?.id).toBe('04-11-082-04W6');
  });

  it('geometry=true adds the survey polygon, a closed ring inside the bbox', async () => {
    const [hit] = (await search({ q: 'SW 1/4 11-82-4 W6M', geometry: 'true' })).body as Result[];
    expect(hit!.legal_land!.unit).toBe('quarter');
    const ring = hit!.geometry!.coordinates[0]!;
    expect(hit!.geometry!.type).toBe('Polygon');
    expect(ring[0]).toEqual(ring.at(-1));
    const [w, s, e, n] = hit!.bbox!;
    for (const [x, y] of ring) {
      expect(x).toBeGreaterThanOrEqual(w! - 1e-6);
      expect(x).toBeLessThanOrEqual(e! + 1e-6);
      expect(y).toBeGreaterThanOrEqual(s! - 1e-6);
      expect(y).toBeLessThanOrEqual(n! + 1e-6);
    }
  });

  it('an NTS sheet and a BC grid unit answer their exact cells', async () => {
    const [sheet] = (await search({ q: '93F/10' })).body as Result[];
    expect(sheet).toMatchObject({ name: '093F10', legal_land: { system: 'NTS', unit: 'sheet', components: { series: 93, map_area: 'F', sheet: 10 } }, bbox: [-125, 53.5, -124.5, 53.75] });
    const [unit] = (await search({ q: 'B-001-L/093-F-10' })).body as Result[];
    expect(unit).toMatchObject({ name: 'B-001-L/093-F-10', legal_land: { system: 'NTS', province: 'BC', unit: 'quarter_unit' } });
  });

  it('a part out of range is a 400 naming it, not []', async () => {
    const cases: [string, RegExp][] = [
      ['NW-37-24-1-W5', /section 37/],
      ['17-11-082-04W6', /LSD 17|lsd 17/i],
      ['04-11-127-04W6', /township 127/],
      ['093Q10', /map area|Q/],
      ['093F17', /sheet 17|17/],
    ];
    for (const [q, message] of cases) {
      const res = await search({ q });
      expect(res.status, q).toBe(400);
      expect((res.body as { error: string }).error, q).toMatch(message);
    }
  });

  it('hard filters apply to the hit: layers, bbox and region', async () => {
    expect((await search({ q: '04-11-082-04W6', layers: 'address' })).body).toEqual([]);
    expect((await search({ q: '04-11-082-04W6', bbox: '-80,43,-79,44' })).body).toEqual([]);
    expect((await search({ q: '04-11-082-04W6', bbox: '-119,55,-118,57' })).body).toHaveLength(1);
    expect((await search({ q: '07-06-005-04W5', region: 'Alberta' })).body).toMatchObject([{ legal_land: { province: 'AB' } }]);
    expect((await search({ q: '07-06-005-04W5', region: 'SK' })).body).toEqual([]);
    const unverified = (await search({ q: '093F10', region: 'BC' })).body as Result[];
    expect(unverified).toMatchObject([{ match_type: 'partial', match_reasons: ['region_not_verified'] }]);
  });

  it('batch answers each slot as search would, with the index in a 400', async () => {
    const res = await stack.post('/geocode/batch', { queries: ['NW-25-24-1-W5', '  ', '21h1'] });
    expect(res.status).toBe(200);
    expect((res.body as Result[][]).map((slot) => slot.map((r) => r.name))).toEqual([['NW-25-024-01W5'], [], ['021H01']]);
    const bad = await stack.post('/geocode/batch', { queries: ['NW-25-24-1-W5', 'NW-37-24-1-W5'] });
    expect(bad.status).toBe(400);
    expect((bad.body as { error: string }).error).toMatch(/^queries\[1\]: .*section 37/);
  });

  it('autocomplete answers a complete description, match_type unknown', async () => {
    const res = await stack.get('/geocode/autocomplete?q=LSD%204%20Sec%2011%20Twp%2082%20Rge%204%20W6M');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject([{ name: '04-11-082-04W6', match_type: 'unknown' }]);
  });
});

describe('GET /geocode/reverse?layers=legal_land', () => {
  it('inside the DLS: LSD, quarter, section and township holding the point, nearest centre first', async () => {
    const res = await stack.get('/geocode/reverse?lon=-114.07&lat=51.05&layers=legal_land&limit=10');
    expect(res.status).toBe(200);
    const hits = res.body as Result[];
    expect(hits.map((h) => h.legal_land!.unit).sort()).toEqual(['lsd', 'quarter', 'section', 'township']);
    expect(hits[0]!.legal_land!.unit).toBe('lsd');
    for (const level of ['lsd', 'quarter', 'section', 'township'] as const) {
      expect(hits.find((h) => h.legal_land!.unit === level)!.name).toBe(dlsCellAt(-114.07, 51.05, level)!.id);
    }
    expect(hits.every((h, i) => i === 0 || h.distance! >= hits[i - 1]!.distance!)).toBe(true);
    expect(hits.every((h) => h.match_type === 'unknown' && h.score === undefined)).toBe(true);
  });

  it('in British Columbia outside the DLS: NTS cells with the BC grid, nearest centre first; limit applies', async () => {
    const all = (await stack.get('/geocode/reverse?lon=-123.12&lat=49.28&layers=legal_land&limit=10')).body as Result[];
    expect(all.map((h) => h.legal_land!.unit).sort()).toEqual(['block', 'map_area', 'quarter_unit', 'series', 'sheet', 'unit']);
    expect(all.find((h) => h.legal_land!.unit === 'sheet')!.name).toBe('092G06');
    expect(all.every((h, i) => i === 0 || h.distance! >= all[i - 1]!.distance!)).toBe(true);
    const three = (await stack.get('/geocode/reverse?lon=-123.12&lat=49.28&layers=legal_land&limit=3')).body as Result[];
    expect(three).toEqual(all.slice(0, 3));
  });

  it('an unknown layer is a 400 naming it; geometry=true adds polygons', async () => {
    const res = await stack.get('/geocode/reverse?lon=-114.07&lat=51.05&layers=parcel');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'layers has an unknown layer "parcel"; reverse geocoding takes legal_land (or no layers for named places)' });
    const [hit] = (await stack.get('/geocode/reverse?lon=-114.07&lat=51.05&layers=legal_land&limit=1&geometry=true')).body as Result[];
    expect(hit!.geometry!.type).toBe('Polygon');
  });
});
