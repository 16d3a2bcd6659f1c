import { Type } from '@sinclair/typebox';

/** Volume 3 "Maps": glyphs and sprites. Path segments are checked by the handlers (plain-text 400s). */
export const GlyphParams = Type.Object({ version: Type.String(), fontstack: Type.String(), range: Type.String() });
export const UnversionedGlyphParams = Type.Object({ fontstack: Type.String(), range: Type.String() });
export const SpriteParams = Type.Object({ version: Type.String(), file: Type.String() });
export const UnversionedSpriteParams = Type.Object({ file: Type.String() });

export const ASSETS_ERRORS: Readonly<Record<number, string>> = {
  400: 'plain text: `invalid fontstack`, `invalid range`, `invalid version`, or (sprites) `unexpected extension`',
  404: 'plain text `not found`: unknown font or sprite file, a version newer than the current one, or no assets release',
};
