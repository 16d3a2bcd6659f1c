import type { Corpus, CorpusPlace, TaxonomyEntry } from '../../engines/geocoding/corpus.ts';

/*
 * A small hand-written corpus for the HTTP tests of /geocode/* and /places/*: two provinces,
 * two cities, three streets with address points, and points of interest around downtown
 * Vancouver (sixty cafés of one chain, so limits and clamps have more than 50 candidates).
 * Coordinates are real places, rounded.
 */

export const VANCOUVER = { lng: -123.1207, lat: 49.2827 };
export const CAFE_COUNT = 60;

const TAXONOMY: TaxonomyEntry[] = [
  { id: 'food.cafe', group: 'food', aliases: ['cafe', 'coffee shop', 'café'], names: { en: 'Café', fr: 'Café' } },
  // The rest of the food group, so that a group token resolves to eight ids.
  ...['restaurant', 'fast_food', 'bar', 'pub', 'bakery', 'ice_cream', 'food_court'].map((name) => ({
    id: `food.${name}`, group: 'food', aliases: [], names: { en: name.replace('_', ' '), fr: name.replace('_', ' ') },
  })),
  { id: 'health.pharmacy', group: 'health', aliases: ['pharmacy', 'drugstore', 'pharmacie'], names: { en: 'Pharmacy', fr: 'Pharmacie' } },
  { id: 'shop.supermarket', group: 'shop', aliases: ['supermarket', 'grocery', 'épicerie'], names: { en: 'Supermarket', fr: 'Supermarché' } },
  {
    id: 'transport.charging_station', group: 'transport', aliases: ['ev charger', 'charging station', 'borne de recharge'],
    names: { en: 'Charging station', fr: 'Borne de recharge' },
  },
  { id: 'culture.library', group: 'culture', aliases: ['library', 'bibliothèque'], names: { en: 'Library', fr: 'Bibliothèque' } },
];

function place(partial: Partial<CorpusPlace> & Pick<CorpusPlace, 'layer' | 'id' | 'name' | 'lng' | 'lat'>): CorpusPlace {
  return {
    source: 'canmap', sourceId: partial.id, names: {}, prominence: 1, region: null, locality: null, city: null,
    category: null, housenumber: null, street: null, postcode: null, ...partial,
  };
}

/** The test corpus; `withCategories: false` is the same data as built before the taxonomy existed. */
export function testCorpus(options: { withCategories?: boolean } = {}): Corpus {
  const withCategories = options.withCategories ?? true;
  const places: CorpusPlace[] = [
    place({ layer: 'region', id: 'region:BC', sourceId: 'BC', name: 'British Columbia', names: { en: 'British Columbia', fr: 'Colombie-Britannique' }, lng: -124.8, lat: 54.0, prominence: 5_000_000, region: 'BC' }),
    place({ layer: 'region', id: 'region:ON', sourceId: 'ON', name: 'Ontario', names: { en: 'Ontario', fr: 'Ontario' }, lng: -85.0, lat: 50.0, prominence: 14_000_000, region: 'ON' }),
    place({ layer: 'locality', id: 'locality:geonames:6173331', source: 'geonames', sourceId: '6173331', name: 'Vancouver', names: { en: 'Vancouver' }, ...VANCOUVER, prominence: 662_248, region: 'BC' }),
    place({ layer: 'locality', id: 'locality:geonames:6167865', source: 'geonames', sourceId: '6167865', name: 'Toronto', names: { en: 'Toronto' }, lng: -79.3832, lat: 43.6532, prominence: 2_731_571, region: 'ON' }),
    place({ layer: 'street', id: 'street:hanna-toronto', source: 'openaddresses', sourceId: 'hanna', name: 'Hanna Avenue', lng: -79.4196, lat: 43.6386, prominence: 3, region: 'ON', locality: 3, city: 'Toronto' }),
    place({ layer: 'street', id: 'street:west-hastings-vancouver', source: 'openaddresses', sourceId: 'w-hastings', name: 'West Hastings Street', lng: -123.1130, lat: 49.2850, prominence: 3, region: 'BC', locality: 2, city: 'Vancouver' }),
    place({ layer: 'street', id: 'street:granville-vancouver', source: 'osm', sourceId: 'w1001', name: 'Granville Street', lng: -123.1190, lat: 49.2810, prominence: 2, region: 'BC', locality: 2, city: 'Vancouver' }),
  ];
  const poi = (id: string, name: string, category: string, lng: number, lat: number, extra: Partial<CorpusPlace> = {}) =>
    places.push(place({
      layer: 'poi', id: `poi:osm:${id}`, source: 'osm', sourceId: id, name, names: { en: name }, lng, lat, prominence: 10,
      region: 'BC', locality: 2, city: 'Vancouver', category: withCategories ? category : null, ...extra,
    }));
  poi('n100', 'Hastings Pharmacy', 'health.pharmacy', -123.1125, 49.2849, { housenumber: '102', street: 'West Hastings Street', postcode: 'V6B 1G8' });
  poi('n101', 'Granville Grocery', 'shop.supermarket', -123.1195, 49.2805, { names: { en: 'Granville Grocery', fr: 'Épicerie Granville' } });
  poi('n102', 'Downtown EV Charging', 'transport.charging_station', -123.1180, 49.2835);
  poi('n103', 'Toronto Public Library', 'culture.library', -79.3871, 43.6718, { region: 'ON', locality: 3, city: 'Toronto' });
  for (let i = 1; i <= CAFE_COUNT; i++) {
    // A 6 × 10 grid of about 70 m cells south-east of the city centre.
    poi(`n${1000 + i}`, `Bean Café ${i}`, 'food.cafe', VANCOUVER.lng + (i % 10) * 0.001, VANCOUVER.lat - Math.floor(i / 10) * 0.0006, { prominence: 100 - i });
  }

  // Address points, sorted by street then house number then unit (Corpus contract).
  const points: { street: number; housenumber: string; unit: string; postcode: string; lng: number; lat: number; source: number; sourceId: string }[] = [
    { street: 4, housenumber: '43', unit: '', postcode: 'M6K 1W8', lng: -79.4197, lat: 43.6383, source: 1, sourceId: 'oa-43' },
    { street: 4, housenumber: '43', unit: '401', postcode: 'M6K 1W8', lng: -79.4197, lat: 43.6383, source: 1, sourceId: 'oa-43-401' },
    { street: 4, housenumber: '45', unit: '', postcode: 'M6K 1W8', lng: -79.4195, lat: 43.6386, source: 1, sourceId: 'oa-45' },
    { street: 5, housenumber: '100', unit: '', postcode: 'V6B 1G8', lng: -123.1128, lat: 49.2851, source: 1, sourceId: 'oa-100' },
    { street: 5, housenumber: '102', unit: '', postcode: 'V6B 1G8', lng: -123.1125, lat: 49.2850, source: 1, sourceId: 'oa-102' },
    { street: 6, housenumber: '800', unit: '', postcode: 'V6Z 2H7', lng: -123.1205, lat: 49.2812, source: 0, sourceId: 'n555' },
  ];
  return {
    sources: ['osm', 'openaddresses'],
    attribution: { osm: '© OpenStreetMap contributors (ODbL)', openaddresses: 'OpenAddresses contributors' },
    places,
    addresses: {
      count: points.length,
      lng: Float64Array.from(points, (p) => p.lng),
      lat: Float64Array.from(points, (p) => p.lat),
      street: Uint32Array.from(points, (p) => p.street),
      housenumber: points.map((p) => p.housenumber),
      unit: points.map((p) => p.unit),
      postcode: points.map((p) => p.postcode),
      source: Uint8Array.from(points, (p) => p.source),
      sourceId: points.map((p) => p.sourceId),
    },
    taxonomy: withCategories ? TAXONOMY : [],
  };
}
