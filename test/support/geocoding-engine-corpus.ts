import type { Corpus, CorpusPlace, TaxonomyEntry } from '../../engines/geocoding/corpus.ts';

/**
 * A small hand-made corpus for the query engine tests: three provinces, six localities, streets
 * with address points (units, postcodes, same-named streets in two cities, a street with no
 * province), POIs in several categories with French names and alternates.
 */
export const TEST_TAXONOMY: TaxonomyEntry[] = [
  { id: 'health.pharmacy', group: 'health', aliases: ['pharmacy', 'drugstore', 'pharmacie'], names: { en: 'Pharmacy', fr: 'Pharmacie' } },
  { id: 'shop.supermarket', group: 'shop', aliases: ['grocery', 'épicerie', 'supermarché'], names: { en: 'Supermarket', fr: 'Supermarché' } },
  { id: 'culture.gallery', group: 'culture', aliases: ['art gallery'], names: { en: 'Gallery', fr: 'Galerie' } },
  { id: 'transport.airport', group: 'transport', aliases: ['airport', 'aéroport'], names: { en: 'Airport', fr: 'Aéroport' } },
  { id: 'transport.charging_station', group: 'transport', aliases: ['ev charger', 'charging station'], names: { en: 'Charging station', fr: 'Borne de recharge' } },
  { id: 'food.cafe', group: 'food', aliases: ['coffee', 'café'], names: { en: 'Café', fr: 'Café' } },
  { id: 'food.fast_food', group: 'food', aliases: ['fast food'], names: { en: 'Fast food', fr: 'Restauration rapide' } },
];

interface AddressRow { street: string; hn: string; unit?: string; postcode?: string; lng: number; lat: number; source?: string; id: string }

export function testCorpus(): Corpus {
  const places: CorpusPlace[] = [];
  const byKey = new Map<string, number>();
  const add = (key: string, p: Partial<CorpusPlace> & Pick<CorpusPlace, 'layer' | 'name' | 'lng' | 'lat'>) => {
    byKey.set(key, places.length);
    places.push({
      source: 'osm', sourceId: key, id: `${p.layer}:${key}`, names: {}, prominence: 1, region: null, locality: null,
      city: null, category: null, housenumber: null, street: null, postcode: null, ...p,
    });
  };
  const loc = (key: string) => byKey.get(key)!;

  add('BC', { layer: 'region', name: 'British Columbia', names: { en: 'British Columbia', fr: 'Colombie-Britannique', 'en-alt1': 'BC' }, lng: -125, lat: 54, region: 'BC', source: 'regions', sourceId: 'BC' });
  add('ON', { layer: 'region', name: 'Ontario', names: { en: 'Ontario', fr: 'Ontario', 'en-alt1': 'ON' }, lng: -85, lat: 50, region: 'ON', source: 'regions', sourceId: 'ON' });
  add('QC', { layer: 'region', name: 'Quebec', names: { en: 'Quebec', fr: 'Québec', 'en-alt1': 'QC' }, lng: -72, lat: 52, region: 'QC', source: 'regions', sourceId: 'QC' });

  add('vancouver', { layer: 'locality', name: 'Vancouver', lng: -123.1207, lat: 49.2827, prominence: 631486, region: 'BC', source: 'geonames', sourceId: '6173331' });
  add('northvan', { layer: 'locality', name: 'North Vancouver', lng: -123.0728, lat: 49.3200, prominence: 52898, region: 'BC', source: 'geonames', sourceId: '6090785' });
  add('burnaby', { layer: 'locality', name: 'Burnaby', lng: -122.9805, lat: 49.2488, prominence: 232755, region: 'BC', source: 'geonames', sourceId: '5911606' });
  add('westend', { layer: 'locality', name: 'West End', lng: -123.1350, lat: 49.2850, prominence: 44000, region: 'BC', source: 'geonames', sourceId: '6180144' });
  add('toronto', { layer: 'locality', name: 'Toronto', lng: -79.3832, lat: 43.6532, prominence: 2731571, region: 'ON', source: 'geonames', sourceId: '6167865' });
  add('montreal', { layer: 'locality', name: 'Montréal', names: { en: 'Montreal', fr: 'Montréal' }, lng: -73.5673, lat: 45.5017, prominence: 1704694, region: 'QC', source: 'geonames', sourceId: '6077243' });
  add('quebeccity', { layer: 'locality', name: 'Québec', names: { en: 'Quebec City', fr: 'Québec' }, lng: -71.2080, lat: 46.8139, prominence: 531902, region: 'QC', source: 'geonames', sourceId: '6325494' });

  const street = (key: string, name: string, city: string, lng: number, lat: number, extra: Partial<CorpusPlace> = {}) =>
    add(key, { layer: 'street', name, lng, lat, city: places[loc(city)]!.name, locality: loc(city), region: places[loc(city)]!.region, source: 'canmap', ...extra });
  street('hanna', 'Hanna Avenue', 'toronto', -79.4196, 43.6395);
  street('main-van', 'Main Street', 'vancouver', -123.1005, 49.2600);
  // More address points than Vancouver's Main Street: the named city must still win.
  street('main-nv', 'Main Street', 'northvan', -123.0700, 49.3120, { prominence: 2 });
  street('georgia', 'West Georgia Street', 'vancouver', -123.1200, 49.2840);
  street('catherine', 'Rue Sainte-Catherine Ouest', 'montreal', -73.5700, 45.5020, { names: { fr: 'Rue Sainte-Catherine Ouest', en: 'St. Catherine Street West' } });
  street('quebec-st', 'Quebec Street', 'vancouver', -123.1030, 49.2700);
  street('denman', 'Denman Street', 'westend', -123.1340, 49.2880);
  street('kingsway', 'Kingsway', 'burnaby', -122.9900, 49.2300);
  add('nowhere', { layer: 'street', name: 'Nowhere Road', lng: -110.0, lat: 55.0, source: 'canmap' });

  const poi = (key: string, name: string, category: string, lng: number, lat: number, city: string | null, extra: Partial<CorpusPlace> = {}) =>
    add(key, {
      layer: 'poi', name, category, lng, lat, prominence: 10,
      ...(city ? { city: places[loc(city)]!.name, locality: loc(city), region: places[loc(city)]!.region } : {}),
      ...extra,
    });
  poi('vag', 'Vancouver Art Gallery', 'culture.gallery', -123.1207, 49.2829, 'vancouver', { housenumber: '750', street: 'Hornby Street', postcode: 'V6Z 2H7', prominence: 50 });
  poi('yvr', 'Vancouver International Airport', 'transport.airport', -123.1815, 49.1967, 'vancouver', {
    names: { en: 'Vancouver International Airport', fr: 'Aéroport international de Vancouver', 'en-iata': 'YVR', 'en-alt1': 'YVR Airport' }, prominence: 100,
  });
  poi('pharm1', 'Main Street Pharmacy', 'health.pharmacy', -123.1006, 49.2605, 'vancouver', { housenumber: '120', street: 'Main Street' });
  poi('pharm2', 'Georgia Pharmacy', 'health.pharmacy', -123.1190, 49.2845, 'vancouver');
  poi('pharm-far', 'Burnaby Pharmacy', 'health.pharmacy', -122.9800, 49.2490, 'burnaby');
  poi('super1', 'Fresh Market', 'shop.supermarket', -123.1010, 49.2610, 'vancouver', { names: { en: 'Fresh Market', fr: 'Marché Frais' } });
  poi('charger', '', 'transport.charging_station', -123.1004, 49.2602, 'vancouver');
  poi('cafe-fr', '', 'food.cafe', -73.5690, 45.5030, 'montreal', { names: { fr: 'Café Olimpico', 'fr-alt1': 'Olimpico' } });
  poi('alt-only', '', 'food.cafe', -73.5680, 45.5040, 'montreal', { names: { 'en-alt1': 'Never Shown', iu: 'ᐃᓄᒃᑎᑐᑦ Café' } });
  poi('seven', '7-Eleven', 'food.fast_food', -123.1100, 49.2650, 'vancouver');
  poi('typo-cafe', 'Vancovuer Cafe', 'food.cafe', -123.1150, 49.2700, 'vancouver');
  poi('main-cafe', 'Main Cafe', 'food.cafe', -79.4190, 43.6400, 'toronto');

  const rows: AddressRow[] = [
    { street: 'hanna', hn: '43', postcode: 'M6K 1X1', lng: -79.41960, lat: 43.63950, id: 'h43' },
    { street: 'hanna', hn: '43', unit: '401', postcode: 'M6K 1X1', lng: -79.41960, lat: 43.63951, id: 'h43-401' },
    { street: 'hanna', hn: '43', unit: '402', postcode: 'M6K 1X1', lng: -79.41960, lat: 43.63952, id: 'h43-402' },
    { street: 'hanna', hn: '45', lng: -79.41970, lat: 43.63960, id: 'h45' },
    { street: 'hanna', hn: '47A', postcode: 'M6K 1X2', lng: -79.41980, lat: 43.63970, id: 'h47a' },
    { street: 'hanna', hn: '51', unit: '1', postcode: 'M6K 1X2', lng: -79.41990, lat: 43.63980, id: 'h51-1' },
    { street: 'main-van', hn: '100', postcode: 'V5T 3E1', lng: -123.10050, lat: 49.26000, id: 'mv100' },
    { street: 'main-van', hn: '200', postcode: 'V5T 3E2', lng: -123.10060, lat: 49.26100, id: 'mv200' },
    { street: 'main-van', hn: '300', lng: -123.10070, lat: 49.26200, id: 'mv300' },
    { street: 'main-nv', hn: '100', postcode: 'V7M 1A1', lng: -123.07000, lat: 49.31200, id: 'mn100' },
    { street: 'main-nv', hn: '150', postcode: 'V7M 1A1', lng: -123.07010, lat: 49.31250, id: 'mn150' },
    { street: 'georgia', hn: '1055', postcode: 'V6E 3P3', lng: -123.12100, lat: 49.28560, id: 'g1055' },
    { street: 'georgia', hn: '1100', postcode: 'V6E 3P3', lng: -123.12200, lat: 49.28600, id: 'g1100' },
    { street: 'catherine', hn: '1000', postcode: 'H3B 1A1', lng: -73.57000, lat: 45.50200, id: 'c1000', source: 'openaddresses' },
    { street: 'quebec-st', hn: '100', lng: -123.10300, lat: 49.27000, id: 'q100' },
    { street: 'denman', hn: '1000', postcode: 'V6G 2M1', lng: -123.13400, lat: 49.28800, id: 'd1000' },
    { street: 'kingsway', hn: '4700', postcode: 'V5H 4M1', lng: -122.99000, lat: 49.23000, id: 'k4700' },
    { street: 'nowhere', hn: '9', lng: -110.00000, lat: 55.00000, id: 'n9' },
  ];
  const sources = ['osm', 'openaddresses'];
  return {
    sources,
    attribution: { osm: '© OpenStreetMap contributors', openaddresses: 'OpenAddresses contributors', geonames: 'GeoNames (geonames.org)' },
    places,
    addresses: {
      count: rows.length,
      lng: Float64Array.from(rows.map((r) => r.lng)),
      lat: Float64Array.from(rows.map((r) => r.lat)),
      street: Uint32Array.from(rows.map((r) => byKey.get(r.street)!)),
      housenumber: rows.map((r) => r.hn),
      unit: rows.map((r) => r.unit ?? ''),
      postcode: rows.map((r) => r.postcode ?? ''),
      source: Uint8Array.from(rows.map((r) => sources.indexOf(r.source ?? 'osm'))),
      sourceId: rows.map((r) => r.id),
    },
    taxonomy: TEST_TAXONOMY,
  };
}
