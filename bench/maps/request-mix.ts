/**
 * The style, glyph and sprite requests the serving benchmark sends: every palette light and dark,
 * each also with a theme preset, catalog overlays, French labels, and all three at once; the two
 * label fonts and a combined stack over Latin, Latin-1, syllabics and General Punctuation ranges;
 * every sprite sheet at both ratios, index and image.
 */
import { STYLE_MODES, PALETTES } from '../../engines/styles/style-names.ts';

export interface StyleCall {
  style: string;
  query: Record<string, string>;
}

const THEMES = ['u1', 'u2', 'u3', 'u4'];

/** `overlayIds`: the catalog layers the served catalog can draw, used alone and in pairs. */
export function styleCalls(overlayIds: readonly string[]): StyleCall[] {
  if (overlayIds.length === 0) throw new Error('the catalog release has no layer with a tile archive to use as an overlay');
  const OVERLAYS = overlayIds.flatMap((id, i) => [id, `${id},${overlayIds[(i + 1) % overlayIds.length]}`]);
  const calls: StyleCall[] = [];
  let i = 0;
  for (const palette of PALETTES) {
    for (const mode of STYLE_MODES) {
      const style = `${palette}-${mode}`;
      const theme = THEMES[i % THEMES.length]!;
      const overlays = OVERLAYS[i % OVERLAYS.length]!;
      calls.push(
        { style, query: {} },
        { style, query: { lang: 'fr' } },
        { style, query: { theme } },
        { style, query: { overlays } },
        { style, query: { theme, overlays, lang: 'fr' } },
      );
      i += 1;
    }
  }
  return calls;
}

export const stylePath = (call: StyleCall, key: string): string =>
  `/styles/${call.style}.json?${new URLSearchParams({ ...call.query, key })}`;

export const GLYPH_STACKS = ['Noto Sans Regular', 'Noto Sans Medium', 'Noto Sans Medium,Noto Sans Regular'];
export const GLYPH_RANGES = [0, 256, 5120, 8192];

export function glyphPaths(version: number, key: string): string[] {
  return GLYPH_STACKS.flatMap((stack) => GLYPH_RANGES.map((start) => `/glyphs/${version}/${encodeURIComponent(stack)}/${start}-${start + 255}.pbf?key=${key}`));
}

export const SPRITE_SHEETS = ['light', 'dark', 'muted-light', 'muted-dark'];

export function spriteFiles(): string[] {
  return SPRITE_SHEETS.flatMap((sheet) => ['', '@2x'].flatMap((ratio) => ['json', 'png'].map((ext) => `${sheet}${ratio}.${ext}`)));
}

export const spritePaths = (version: number, key: string): string[] => spriteFiles().map((file) => `/sprite/${version}/${file}?key=${key}`);
