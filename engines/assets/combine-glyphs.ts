import type { Glyph, GlyphRangeMessage } from './glyph-pbf.ts';

/**
 * One range of a comma-separated fontstack: each code point from the first font that draws it
 * (MapLibre asks for `Font A,Font B` and expects the server to do this fallback).
 */
export function combineGlyphRanges(name: string, range: string, fonts: readonly (readonly Glyph[])[]): GlyphRangeMessage {
  const chosen = new Map<number, Glyph>();
  for (const glyphs of fonts) {
    for (const glyph of glyphs) if (!chosen.has(glyph.id)) chosen.set(glyph.id, glyph);
  }
  return { name, range, glyphs: [...chosen.values()].sort((a, b) => a.id - b.id) };
}
