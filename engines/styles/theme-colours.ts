/** A theme's colours laid over a palette's Flavor: each theme key sets a family of flavor keys. */
import type { Flavor } from '@protomaps/basemaps';
import type { ThemeColourKey, ThemeSpec } from './theme-schema.ts';

type ColourKey = Exclude<keyof Flavor, 'pois' | 'landcover' | 'regular' | 'bold' | 'italic'>;

const ROAD_KINDS = ['other', 'minor', 'link', 'major', 'highway'] as const;

const FAMILIES: Record<ThemeColourKey, readonly ColourKey[]> = {
  background: ['background'],
  land: ['earth', 'pedestrian', 'hospital', 'industrial', 'school', 'aerodrome', 'military', 'zoo', 'sand', 'glacier', 'beach'],
  water: ['water'],
  park: ['park_a', 'park_b', 'wood_a', 'wood_b', 'scrub_a', 'scrub_b'],
  buildings: ['buildings'],
  roads: ['other', 'minor_service', 'minor_a', 'minor_b', 'link', 'major', 'highway', 'runway', 'pier',
    ...ROAD_KINDS.map((k) => `bridges_${k}` as const), ...ROAD_KINDS.map((k) => `tunnel_${k}` as const)],
  roadCasing: ['minor_service_casing', 'minor_casing', 'link_casing', 'major_casing_late', 'major_casing_early',
    'highway_casing_late', 'highway_casing_early',
    ...ROAD_KINDS.map((k) => `bridges_${k}_casing` as const), ...ROAD_KINDS.map((k) => `tunnel_${k}_casing` as const)],
  railway: ['railway'],
  boundaries: ['boundaries'],
  labels: ['roads_label_minor', 'roads_label_major', 'ocean_label', 'subplace_label', 'city_label', 'state_label', 'country_label', 'address_label'],
  labelHalo: ['roads_label_minor_halo', 'roads_label_major_halo', 'subplace_label_halo', 'city_label_halo', 'state_label_halo', 'address_label_halo'],
};

export function themedFlavor(flavor: Flavor, colors: ThemeSpec['colors']): Flavor {
  if (!colors) return flavor;
  const out: Flavor = { ...flavor };
  for (const [key, colour] of Object.entries(colors) as [ThemeColourKey, string][]) {
    for (const target of FAMILIES[key]) out[target] = colour;
  }
  // A theme that recolours land also drops protomaps' landcover tints, which would otherwise cover it.
  if (colors.land) delete out.landcover;
  return out;
}
