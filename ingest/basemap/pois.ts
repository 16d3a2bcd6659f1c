/**
 * OSM points of interest → the `pois` layer: the kinds protomaps' `pois` layer draws (its icon is
 * the kind), with the zoom each becomes visible at. Areas (parks, campuses, airports) give a
 * point at their label position; big ones appear earlier (zoomForArea in the pipeline).
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';

/** kind → the zoom it appears at (the styles compare `min_zoom` with the map's zoom). */
export const POI_ZOOMS: Readonly<Record<string, number>> = {
  aerodrome: 10, peak: 11, park: 12, forest: 12, zoo: 12, station: 12, university: 12, beach: 13, marina: 13, stadium: 13,
  ferry_terminal: 13, garden: 14, museum: 13, attraction: 13, theatre: 14, library: 14, school: 14, townhall: 14, post_office: 14,
  supermarket: 14, animal: 15, restaurant: 15, fast_food: 15, cafe: 15, bar: 15, convenience: 15, books: 15, beauty: 15,
  electronics: 15, clothes: 15, artwork: 15, building: 15, bus_stop: 16, toilets: 16, drinking_water: 16, bench: 17,
};

const BY_TAG: readonly [string, Readonly<Record<string, string>>][] = [
  ['aeroway', { aerodrome: 'aerodrome' }],
  ['railway', { station: 'station', halt: 'station' }],
  ['public_transport', { station: 'station' }],
  ['amenity', {
    ferry_terminal: 'ferry_terminal', university: 'university', college: 'university', library: 'library', school: 'school',
    toilets: 'toilets', drinking_water: 'drinking_water', post_office: 'post_office', townhall: 'townhall', restaurant: 'restaurant',
    fast_food: 'fast_food', cafe: 'cafe', bar: 'bar', pub: 'bar', theatre: 'theatre', bench: 'bench',
  }],
  ['leisure', { park: 'park', marina: 'marina', stadium: 'stadium', garden: 'garden', nature_reserve: 'park' }],
  ['boundary', { national_park: 'park' }],
  ['tourism', { zoo: 'zoo', museum: 'museum', attraction: 'attraction', artwork: 'artwork', gallery: 'museum', aquarium: 'zoo' }],
  ['shop', { supermarket: 'supermarket', convenience: 'convenience', books: 'books', beauty: 'beauty', hairdresser: 'beauty', electronics: 'electronics', clothes: 'clothes' }],
  ['natural', { peak: 'peak', beach: 'beach', wood: 'forest' }],
  ['landuse', { forest: 'forest' }],
  ['highway', { bus_stop: 'bus_stop' }],
];

/** The POI kind of an object, or null. Nameless ones count only where the kind is useful unnamed (a peak needs a name; a bench does not). */
export function classifyPoi(tags: OsmTags): string | null {
  for (const [key, kinds] of BY_TAG) {
    const value = tags[key];
    const kind = value === undefined ? undefined : kinds[value];
    if (kind === undefined) continue;
    if (!tags.name && !UNNAMED_OK.has(kind)) return null;
    return kind;
  }
  return null;
}

const UNNAMED_OK: ReadonlySet<string> = new Set(['toilets', 'drinking_water', 'bench', 'bus_stop', 'artwork']);
