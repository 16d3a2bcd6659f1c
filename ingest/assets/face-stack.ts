import { readFile } from 'node:fs/promises';
import opentype from 'opentype.js';
import { type FaceDefinition, fontFilePath } from './font-faces.ts';

/** Glyphs are cut at 24 px per em (MapLibre's ONE_EM). */
export const GLYPH_EM_PX = 24;

export interface LoadedFont {
  path: string;
  font: opentype.Font;
  /** px per font unit. */
  scale: number;
  /** The font's ascender in whole px, truncated as FreeType's 26.6 metrics are by fontnik. */
  ascender: number;
}

export interface GlyphSource {
  font: LoadedFont;
  glyphIndex: number;
}

/** Loads each font file once for every face that uses it. */
export class FontCache {
  private readonly fonts = new Map<string, Promise<LoadedFont>>();

  load(file: string): Promise<LoadedFont> {
    let loaded = this.fonts.get(file);
    if (!loaded) {
      loaded = readFile(file).then((bytes) => {
        const font = opentype.parse(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
        const scale = GLYPH_EM_PX / font.unitsPerEm;
        return { path: file, font, scale, ascender: Math.trunc(font.ascender * scale) };
      });
      this.fonts.set(file, loaded);
    }
    return loaded;
  }
}

/** The code points of the Basic Multilingual Plane a face draws, each from the first file that has it. */
export async function loadFaceStack(face: FaceDefinition, cache: FontCache): Promise<Map<number, GlyphSource>> {
  const codePoints = new Map<number, GlyphSource>();
  for (const ref of face.files) {
    const font = await cache.load(fontFilePath(ref));
    const cmap = (font.font.tables.cmap as unknown as { glyphIndexMap: Record<string, number> }).glyphIndexMap;
    for (const [key, glyphIndex] of Object.entries(cmap)) {
      const codePoint = Number(key);
      if (codePoint > 0xffff || glyphIndex === 0 || codePoints.has(codePoint)) continue;
      codePoints.set(codePoint, { font, glyphIndex });
    }
  }
  return codePoints;
}
