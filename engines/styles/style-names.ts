/**
 * Style names of volume 3 "Style parameters": twelve palettes, each light or dark, the legacy
 * aliases and the three legacy city styles. The retired pixel-art style deliberately has no alias.
 */

export const PALETTES = [
  'base', 'muted', 'outdoor', 'blueprint', 'blush', 'orchid',
  'canopy', 'lagoon', 'tropic', 'sunset', 'bold', 'pastel',
] as const;
export type PaletteName = (typeof PALETTES)[number];

export const STYLE_MODES = ['light', 'dark'] as const;
export type StyleMode = (typeof STYLE_MODES)[number];

export const CITIES = ['calgary', 'montreal', 'iqaluit'] as const;
export type CityName = (typeof CITIES)[number];

export interface StyleChoice {
  palette: PaletteName;
  mode: StyleMode;
}

export const DEFAULT_STYLE: StyleChoice = { palette: 'base', mode: 'light' };

export const LEGACY_STYLES: ReadonlyMap<string, StyleChoice> = new Map([
  ['light', DEFAULT_STYLE],
  ['street', DEFAULT_STYLE],
  ['white', DEFAULT_STYLE],
  ['dark', { palette: 'base', mode: 'dark' }],
  ['black', { palette: 'base', mode: 'dark' }],
  ['relief', { palette: 'outdoor', mode: 'light' }],
  ['grayscale', { palette: 'muted', mode: 'light' }],
]);

/** Starting view of each legacy city style ([lng, lat], zoom). */
export const CITY_VIEWS: Readonly<Record<CityName, { center: [number, number]; zoom: number }>> = {
  calgary: { center: [-114.0719, 51.0447], zoom: 11 },
  montreal: { center: [-73.5673, 45.5017], zoom: 11 },
  iqaluit: { center: [-68.517, 63.7467], zoom: 12 },
};

/** The whole country, for every style that is not a city style. */
export const CANADA_VIEW = { center: [-96.8, 60] as [number, number], zoom: 3 };

/** Every name the style path accepts, for the 404 body. */
export const ALL_STYLE_NAMES: readonly string[] = [
  ...PALETTES.flatMap((p) => [p, `${p}-light`, `${p}-dark`]),
  ...LEGACY_STYLES.keys(),
  ...CITIES,
];

function isPalette(name: string): name is PaletteName {
  return (PALETTES as readonly string[]).includes(name);
}

export function isCity(name: string): name is CityName {
  return (CITIES as readonly string[]).includes(name);
}

/** A palette name with optional -light/-dark suffix, or a legacy alias; undefined when unknown. */
export function parsePaletteStyle(name: string): StyleChoice | undefined {
  const legacy = LEGACY_STYLES.get(name);
  if (legacy) return legacy;
  const match = /^([a-z]+)(?:-(light|dark))?$/.exec(name);
  const palette = match?.[1];
  if (palette === undefined || !isPalette(palette)) return undefined;
  return { palette, mode: (match?.[2] as StyleMode | undefined) ?? 'light' };
}

/** The query's mode overrides the style's; anything other than light or dark is ignored. */
export function parseModeParam(value: string | undefined): StyleMode | undefined {
  return value === 'light' || value === 'dark' ? value : undefined;
}
