/**
 * The twelve palettes, each a protomaps Flavor for light and for dark. Every palette starts from
 * one of protomaps' own flavors, washes every colour towards a tint (keeping the flavor's lightness
 * steps, so roads still read above land) and then sets the few colours that carry the palette's
 * character. Computed once per process.
 */
import { BLACK, DARK, GRAYSCALE, LIGHT, WHITE, type Flavor } from '@protomaps/basemaps';
import { mix } from './colour.ts';
import { PALETTES, type StyleMode, type PaletteName } from './style-names.ts';

type FlavorColours = Partial<Omit<Flavor, 'pois' | 'landcover' | 'regular' | 'bold' | 'italic'>>;

interface PaletteRecipe {
  from: Flavor;
  /** Colour every flavor colour is mixed towards, and by how much (0..1). */
  tint?: { colour: string; amount: number };
  set?: FlavorColours;
}

type PaletteBook = Record<PaletteName, Record<StyleMode, PaletteRecipe>>;

const ROADS_BOLD_LIGHT: FlavorColours = { highway: '#f59e0b', major: '#fde68a', link: '#fde68a', bridges_highway: '#f59e0b', bridges_major: '#fde68a' };
const ROADS_BOLD_DARK: FlavorColours = { highway: '#f97316', major: '#a16207', link: '#a16207', bridges_highway: '#f97316', bridges_major: '#a16207' };

/** Hues: blueprint 215° blue, blush 345° rose, orchid 285° purple, canopy 130° forest green,
 * lagoon 180° teal, tropic 50° sand with 175° aqua water, sunset 25° orange, pastel soft lilac on white. */
const RECIPES: PaletteBook = {
  base: { light: { from: LIGHT }, dark: { from: DARK } },
  muted: { light: { from: GRAYSCALE }, dark: { from: BLACK } },
  outdoor: {
    light: { from: LIGHT, tint: { colour: '#d9e6c3', amount: 0.25 }, set: { park_b: '#8fcf9c', wood_b: '#86c98f', water: '#8ecae6' } },
    dark: { from: DARK, tint: { colour: '#1f3324', amount: 0.25 }, set: { park_b: '#2f5a3a', wood_b: '#2c5335', water: '#1d3b4f' } },
  },
  blueprint: {
    light: { from: WHITE, tint: { colour: '#cfe0f5', amount: 0.6 }, set: { water: '#7aa7d9', highway: '#ffffff', boundaries: '#2f5f9e' } },
    dark: { from: BLACK, tint: { colour: '#0d2a4f', amount: 0.8 }, set: { water: '#081a33', highway: '#9cc3f0', major: '#6d9bd1', boundaries: '#9cc3f0' } },
  },
  blush: {
    light: { from: LIGHT, tint: { colour: '#f7d9e0', amount: 0.45 }, set: { water: '#b9d4ee', park_b: '#e8b7c4' } },
    dark: { from: DARK, tint: { colour: '#3d1f29', amount: 0.45 }, set: { water: '#1f2a3d', park_b: '#5a2f3d' } },
  },
  orchid: {
    light: { from: LIGHT, tint: { colour: '#e6d8f2', amount: 0.45 }, set: { water: '#a9b8ef', park_b: '#c9a9e0' } },
    dark: { from: DARK, tint: { colour: '#2c1d3d', amount: 0.5 }, set: { water: '#1b1f45', park_b: '#46305e' } },
  },
  canopy: {
    light: { from: LIGHT, tint: { colour: '#cfe5c8', amount: 0.45 }, set: { water: '#7fc4c9', park_b: '#6fbf7a', wood_b: '#5fb36b' } },
    dark: { from: DARK, tint: { colour: '#15301b', amount: 0.55 }, set: { water: '#10303a', park_b: '#1f4f2a', wood_b: '#1c4a26' } },
  },
  lagoon: {
    light: { from: LIGHT, tint: { colour: '#cdeeea', amount: 0.4 }, set: { water: '#3fc1c9', park_b: '#8fd6bf' } },
    dark: { from: DARK, tint: { colour: '#0f3136', amount: 0.55 }, set: { water: '#0a4d55', park_b: '#1d4a42' } },
  },
  tropic: {
    light: { from: LIGHT, tint: { colour: '#f6ecc6', amount: 0.45 }, set: { water: '#36d1c4', park_b: '#7fd18b', beach: '#f4dfa0' } },
    dark: { from: DARK, tint: { colour: '#33301a', amount: 0.45 }, set: { water: '#0d4f4a', park_b: '#2d5a33', beach: '#5a4d26' } },
  },
  sunset: {
    light: { from: LIGHT, tint: { colour: '#f8dcc4', amount: 0.45 }, set: { water: '#9fb8e0', highway: '#f6a15b', major: '#fbd2a8' } },
    dark: { from: DARK, tint: { colour: '#3a2215', amount: 0.5 }, set: { water: '#1f2540', highway: '#c8642a', major: '#7a4324' } },
  },
  bold: {
    light: { from: LIGHT, set: { ...ROADS_BOLD_LIGHT, water: '#4fa3e0', park_b: '#5cc27a', boundaries: '#7c3aed' } },
    dark: { from: DARK, set: { ...ROADS_BOLD_DARK, water: '#1e4f8a', park_b: '#236b3b', boundaries: '#a78bfa' } },
  },
  pastel: {
    light: { from: WHITE, tint: { colour: '#efe6f7', amount: 0.35 }, set: { water: '#c5dff5', park_b: '#d3eed9', park_a: '#e3f3e6', highway: '#fbe3c9' } },
    dark: { from: BLACK, tint: { colour: '#3a3546', amount: 0.55 }, set: { water: '#3b4a5e', park_b: '#3e5446', park_a: '#3a4840', highway: '#5e4a3a' } },
  },
};

const FONT_KEYS = new Set(['regular', 'bold', 'italic']);

function tintAll<T extends object>(colours: T, colour: string, amount: number): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(colours)) {
    out[key] = typeof value === 'string' && !FONT_KEYS.has(key) ? mix(value, colour, amount) : value;
  }
  return out as T;
}

function build({ from, tint, set }: PaletteRecipe): Flavor {
  let flavor: Flavor = { ...from };
  if (tint) {
    flavor = tintAll(flavor, tint.colour, tint.amount);
    if (from.landcover) flavor.landcover = tintAll(from.landcover, tint.colour, tint.amount);
  }
  const built = { ...flavor, ...set };
  // The basemap draws land, not sea (volume 3: ocean tiles are 204), so the background is the sea.
  return { ...built, background: built.water };
}

const FLAVORS = new Map<string, Flavor>(
  PALETTES.flatMap((palette) => (['light', 'dark'] as const).map((mode) => [`${palette}-${mode}`, build(RECIPES[palette][mode])] as const)),
);

export function paletteFlavor(palette: PaletteName, mode: StyleMode): Flavor {
  const flavor = FLAVORS.get(`${palette}-${mode}`);
  if (!flavor) throw new Error(`no flavor for ${palette}-${mode}`);
  return flavor;
}

/** The sprite sheet whose icons suit the palette: muted gets its own grey sheets. */
export function spriteSheet(palette: PaletteName, mode: StyleMode): string {
  return palette === 'muted' ? `muted-${mode}` : mode;
}
