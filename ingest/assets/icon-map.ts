/**
 * The icons of the sprite sheets: every name the styles' `icon-image` can produce (protomaps
 * basemaps v5 layers: the POI `kind` with station → train_station, `arrow` for one-way roads,
 * `capital` / `townspot` for localities, and road shields `<network>-<N>char` for 1–5
 * characters). POIs are drawn as a badge around a maki icon (CC0) in their category's colours;
 * the rest are drawn here. test/assets/sprite-coverage.test.ts checks this covers the styles.
 */

export type PoiCategory = 'nature' | 'transport' | 'civic' | 'food_shop' | 'culture';

/** POI icon name (what the style asks for) → maki icon and category. */
export const POI_ICONS: Readonly<Record<string, { maki: string; category: PoiCategory }>> = {
  beach: { maki: 'beach', category: 'nature' },
  forest: { maki: 'park-alt1', category: 'nature' },
  park: { maki: 'park', category: 'nature' },
  garden: { maki: 'garden', category: 'nature' },
  peak: { maki: 'mountain', category: 'nature' },
  marina: { maki: 'harbor', category: 'nature' },
  zoo: { maki: 'zoo', category: 'nature' },
  animal: { maki: 'veterinary', category: 'nature' },
  aerodrome: { maki: 'airport', category: 'transport' },
  train_station: { maki: 'rail', category: 'transport' },
  bus_stop: { maki: 'bus', category: 'transport' },
  ferry_terminal: { maki: 'ferry', category: 'transport' },
  bench: { maki: 'picnic-site', category: 'civic' },
  toilets: { maki: 'toilet', category: 'civic' },
  drinking_water: { maki: 'drinking-water', category: 'civic' },
  post_office: { maki: 'post', category: 'civic' },
  building: { maki: 'building', category: 'civic' },
  townhall: { maki: 'town-hall', category: 'civic' },
  school: { maki: 'school', category: 'civic' },
  university: { maki: 'college', category: 'civic' },
  library: { maki: 'library', category: 'civic' },
  restaurant: { maki: 'restaurant', category: 'food_shop' },
  fast_food: { maki: 'fast-food', category: 'food_shop' },
  cafe: { maki: 'cafe', category: 'food_shop' },
  bar: { maki: 'bar', category: 'food_shop' },
  supermarket: { maki: 'grocery', category: 'food_shop' },
  convenience: { maki: 'convenience', category: 'food_shop' },
  books: { maki: 'library', category: 'food_shop' },
  beauty: { maki: 'hairdresser', category: 'food_shop' },
  electronics: { maki: 'mobile-phone', category: 'food_shop' },
  clothes: { maki: 'clothing-store', category: 'food_shop' },
  attraction: { maki: 'attraction', category: 'culture' },
  museum: { maki: 'museum', category: 'culture' },
  theatre: { maki: 'theatre', category: 'culture' },
  artwork: { maki: 'art-gallery', category: 'culture' },
  stadium: { maki: 'stadium', category: 'culture' },
};

/** The one-way arrow: maki's `arrow` turned to point up (the style rotates it 90° onto the road). */
export const ARROW_ICON = { name: 'arrow', maki: 'arrow' } as const;
export const LOCALITY_ICONS = ['capital', 'townspot'] as const;

/** Shield networks the style names (`US:I`, `NL:S-road`, else `generic_shield`) and the 1–5 character widths it asks for. */
export const SHIELD_NETWORKS = ['generic_shield', 'US:I', 'NL:S-road'] as const;
export const SHIELD_MAX_CHARS = 5;

export const shieldIconName = (network: string, chars: number): string => `${network}-${chars}char`;

/** Every icon name of every sheet, sorted. */
export function allIconNames(): string[] {
  const shields = SHIELD_NETWORKS.flatMap((network) =>
    Array.from({ length: SHIELD_MAX_CHARS }, (_, i) => shieldIconName(network, i + 1)));
  return [...Object.keys(POI_ICONS), ARROW_ICON.name, ...LOCALITY_ICONS, ...shields].sort();
}
