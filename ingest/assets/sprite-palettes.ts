/**
 * Colours of each sprite sheet. light/dark follow protomaps' own sheets (tinted badge, darker
 * or lighter glyph, outline in the category colour); the muted sheets are greys only, for the
 * grayscale/black palettes of the muted style.
 */
import type { SpriteSheetName } from '../../schemas/assets-release.ts';
import type { PoiCategory } from './icon-map.ts';

export interface BadgeColours {
  fill: string;
  stroke: string;
  glyph: string;
}

export interface SheetPalette {
  poi: Record<PoiCategory, BadgeColours>;
  arrow: string;
  /** Locality dot: fill and outline; the capital adds a ring. */
  town: { fill: string; stroke: string };
  /** Generic shields; US:I and NL:S-road add their own fill and outline. */
  shield: BadgeColours;
  interstate: BadgeColours;
  nlRoad: BadgeColours;
}

const LIGHT: SheetPalette = {
  poi: {
    nature: { fill: '#d9f2dc', stroke: '#5fae6c', glyph: '#2f7a3d' },
    transport: { fill: '#dce6fb', stroke: '#6d8fd8', glyph: '#3156a8' },
    civic: { fill: '#e6e3f3', stroke: '#8c84bb', glyph: '#544c87' },
    food_shop: { fill: '#fbe6d2', stroke: '#d99557', glyph: '#9a5417' },
    culture: { fill: '#f7dde6', stroke: '#c77b98', glyph: '#8c3657' },
  },
  arrow: '#a3a3a3',
  town: { fill: '#ffffff', stroke: '#5c5c5c' },
  shield: { fill: '#ffffff', stroke: '#9e9e9e', glyph: '#5c5c5c' },
  interstate: { fill: '#2c5aa0', stroke: '#ffffff', glyph: '#c8102e' },
  nlRoad: { fill: '#f7d117', stroke: '#6b5a00', glyph: '#000000' },
};

const DARK: SheetPalette = {
  poi: {
    nature: { fill: '#1f3a25', stroke: '#3f8a4f', glyph: '#8fd69b' },
    transport: { fill: '#1d2a47', stroke: '#3f62b0', glyph: '#9db8f2' },
    civic: { fill: '#2b2840', stroke: '#6b6399', glyph: '#bdb5ea' },
    food_shop: { fill: '#3d2a18', stroke: '#a8672d', glyph: '#f2bd8a' },
    culture: { fill: '#3d1f2b', stroke: '#a34f70', glyph: '#ef9fbe' },
  },
  arrow: '#6b6b6b',
  town: { fill: '#2b2b2b', stroke: '#c9c9c9' },
  shield: { fill: '#3a3a3a', stroke: '#7a7a7a', glyph: '#c9c9c9' },
  interstate: { fill: '#1f4178', stroke: '#c9c9c9', glyph: '#9e1b32' },
  nlRoad: { fill: '#8c7a12', stroke: '#d9c75a', glyph: '#000000' },
};

const greys = (fill: string, stroke: string, glyph: string): Record<PoiCategory, BadgeColours> => {
  const badge = { fill, stroke, glyph };
  return { nature: badge, transport: badge, civic: badge, food_shop: badge, culture: badge };
};

const MUTED_LIGHT: SheetPalette = {
  poi: greys('#ececec', '#a6a6a6', '#5e5e5e'),
  arrow: '#b0b0b0',
  town: { fill: '#ffffff', stroke: '#6e6e6e' },
  shield: { fill: '#ffffff', stroke: '#a6a6a6', glyph: '#6e6e6e' },
  interstate: { fill: '#8a8a8a', stroke: '#ffffff', glyph: '#5e5e5e' },
  nlRoad: { fill: '#d4d4d4', stroke: '#6e6e6e', glyph: '#000000' },
};

const MUTED_DARK: SheetPalette = {
  poi: greys('#262626', '#5c5c5c', '#b3b3b3'),
  arrow: '#5c5c5c',
  town: { fill: '#1a1a1a', stroke: '#a6a6a6' },
  shield: { fill: '#2e2e2e', stroke: '#666666', glyph: '#b3b3b3' },
  interstate: { fill: '#4d4d4d', stroke: '#a6a6a6', glyph: '#333333' },
  nlRoad: { fill: '#5c5c5c', stroke: '#a6a6a6', glyph: '#000000' },
};

export const SHEET_PALETTES: Readonly<Record<SpriteSheetName, SheetPalette>> = {
  light: LIGHT,
  dark: DARK,
  'muted-light': MUTED_LIGHT,
  'muted-dark': MUTED_DARK,
};
