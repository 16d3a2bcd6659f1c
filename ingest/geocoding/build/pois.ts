import type { CorpusPlace } from '../../../engines/geocoding/corpus.ts';
import type { OsmExtract } from '../osm/extract.ts';
import { fold } from '../../../engines/geocoding/text/fold.ts';
import { parsePostcode } from '../../../engines/geocoding/text/postcode.ts';
import type { AdminLocator } from './admin-locator.ts';
import type { BuildLocality } from './places.ts';

/** Two POIs with the same folded name and category this close (metres) are one place (e.g. a node inside its building way). */
const SAME_PLACE_METRES = 100;

/** Prominence of a POI by category group: places people look up from afar rank above corner shops. */
const CATEGORY_PROMINENCE: Record<string, number> = {
  'transport.airport': 50, 'health.hospital': 20, 'education.university': 20, 'education.college': 10,
  'transport.train_station': 10, 'transport.ferry_terminal': 10, 'transport.bus_station': 5,
  'culture.museum': 8, 'tourism.attraction': 8, 'tourism.zoo': 8, 'tourism.theme_park': 8, 'shop.mall': 8,
};

function metresApart(a: { lng: number; lat: number }, b: { lng: number; lat: number }): number {
  const k = Math.PI / 180;
  const x = (b.lng - a.lng) * k * Math.cos(((a.lat + b.lat) / 2) * k);
  const y = (b.lat - a.lat) * k;
  return Math.sqrt(x * x + y * y) * 6371008.8;
}

/** OSM points of interest → POI places (locality index into `localities`), duplicates merged. */
export function buildPois(
  extracts: OsmExtract[],
  locator: AdminLocator,
  localities: BuildLocality[],
): { places: CorpusPlace[]; merged: number } {
  const kept = new Map<string, CorpusPlace[]>();
  const places: CorpusPlace[] = [];
  let merged = 0;
  for (const poi of extracts.flatMap((e) => e.pois)) {
    // Unnamed POIs (chargers, ATMs) share their category's name: only a named one can be a duplicate by name.
    const key = poi.named ? `${fold(poi.name)}|${poi.category}` : null;
    const same = key === null ? undefined : kept.get(key);
    if (same?.some((p) => metresApart(p, poi) <= SAME_PLACE_METRES)) {
      merged++;
      continue;
    }
    const region = locator.regionOf(poi.lng, poi.lat);
    const loc = locator.localityAt(poi.lng, poi.lat, region);
    const place: CorpusPlace = {
      layer: 'poi', source: 'osm', sourceId: poi.sourceId, id: `poi:osm:${poi.sourceId}`,
      name: poi.name, names: poi.names, named: poi.named, lng: poi.lng, lat: poi.lat,
      prominence: CATEGORY_PROMINENCE[poi.category] ?? 1,
      region, locality: loc, city: poi.city ?? (loc === null ? null : localities[loc]!.name),
      category: poi.category, housenumber: poi.housenumber, street: poi.street,
      postcode: poi.postcode ? parsePostcode(poi.postcode) : null,
    };
    places.push(place);
    if (same) same.push(place);
    else if (key !== null) kept.set(key, [place]);
  }
  return { places, merged };
}
