/**
 * OSM areas → the `landuse` layer (parks, forests, schools, hospitals, industry, airports,
 * piers...) and the `landcover` layer of the low zooms (forest, grassland, scrub, glacier,
 * barren, farmland, urban_area), with the kinds protomaps' styles colour.
 */
import type { OsmTags } from '../osm/pbf-primitive-block.ts';

const BY_TAG: readonly [string, Readonly<Record<string, string>>][] = [
  ['boundary', { national_park: 'national_park', protected_area: 'protected_area' }],
  ['leisure', { park: 'park', nature_reserve: 'nature_reserve', golf_course: 'golf_course', garden: 'park', playground: 'playground', pitch: 'playground', stadium: 'stadium', marina: 'marina' }],
  ['landuse', {
    cemetery: 'cemetery', forest: 'forest', grass: 'grass', meadow: 'grassland', military: 'military', industrial: 'industrial',
    allotments: 'allotments', village_green: 'village_green', recreation_ground: 'park', railway: 'industrial', quarry: 'industrial',
    farmland: 'farmland', orchard: 'farmland', vineyard: 'farmland', residential: 'residential', commercial: 'commercial', retail: 'commercial',
  }],
  ['natural', { wood: 'wood', scrub: 'scrub', grassland: 'grassland', heath: 'grassland', glacier: 'glacier', sand: 'sand', beach: 'beach', bare_rock: 'barren', scree: 'barren', wetland: 'wetland' }],
  ['amenity', { hospital: 'hospital', school: 'school', university: 'university', college: 'college', grave_yard: 'cemetery', parking: 'parking' }],
  ['aeroway', { aerodrome: 'aerodrome', runway: 'runway', taxiway: 'taxiway', apron: 'airfield' }],
  ['tourism', { zoo: 'zoo' }],
  ['military', { naval_base: 'naval_base', airfield: 'airfield' }],
  ['man_made', { pier: 'pier', breakwater: 'pier' }],
  ['highway', { pedestrian: 'pedestrian' }],
  ['waterway', { dam: 'dam' }],
];

/** The landuse kind of an area, or null. */
export function classifyLanduse(tags: OsmTags): string | null {
  for (const [key, kinds] of BY_TAG) {
    const value = tags[key];
    if (value !== undefined && kinds[value] !== undefined) return kinds[value]!;
  }
  return null;
}

const LANDCOVER: Readonly<Record<string, string>> = {
  forest: 'forest', wood: 'forest', grassland: 'grassland', scrub: 'scrub', glacier: 'glacier', barren: 'barren', sand: 'barren',
  farmland: 'farmland', residential: 'urban_area', commercial: 'urban_area', industrial: 'urban_area',
};

/** The landcover class of a landuse kind (what the low zooms paint), or null. */
export function landcoverOf(landuseKind: string): string | null {
  return LANDCOVER[landuseKind] ?? null;
}

/** The landuse kinds protomaps' layers paint (landuse_park, _urban_green, _hospital, ...); others stay out of the tiles. */
export const DRAWN_LANDUSE: ReadonlySet<string> = new Set([
  'national_park', 'park', 'cemetery', 'protected_area', 'nature_reserve', 'forest', 'golf_course', 'wood', 'scrub', 'grassland',
  'grass', 'glacier', 'sand', 'military', 'naval_base', 'airfield', 'allotments', 'village_green', 'playground', 'hospital',
  'industrial', 'school', 'university', 'college', 'beach', 'zoo', 'aerodrome', 'runway', 'taxiway', 'pedestrian', 'dam', 'pier',
]);
