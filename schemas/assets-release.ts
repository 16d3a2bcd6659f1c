import { Type, type Static } from '@sinclair/typebox';

/** Layout of an assets release directory (written by ingest/assets, read by engines/assets). */
export const ASSETS_KIND = 'assets';
export const ASSETS_SCHEMA_VERSION = 1;
/** The index below: faces, their ranges in the glyph pack, sprite sheets, licences. */
export const ASSETS_INDEX_FILE = 'assets.json';
/** Every face's non-empty glyph ranges, each a gzip-compressed glyphs.proto message, back to back. */
export const GLYPH_PACK_FILE = 'glyphs.pack';
/** `<sheet>[@2x].json` and `.png` files. */
export const SPRITE_DIR = 'sprite';
/** The licence texts of the fonts and icons the release is made from. */
export const LICENCE_DIR = 'licences';

export const SPRITE_SHEETS = ['light', 'dark', 'muted-light', 'muted-dark'] as const;
export type SpriteSheetName = (typeof SPRITE_SHEETS)[number];

/** `[offset, length, glyphs]` of one range in the glyph pack. */
export const PackedRange = Type.Tuple([Type.Integer({ minimum: 0 }), Type.Integer({ minimum: 1 }), Type.Integer({ minimum: 1 })]);

export const GlyphFaceEntry = Type.Object({
  name: Type.String({ minLength: 1 }),
  /** Range start (a multiple of 256, as a decimal string) → where its pbf is; absent ranges have no glyphs. */
  ranges: Type.Record(Type.String({ pattern: '^\\d+$' }), PackedRange),
});
export type GlyphFaceEntry = Static<typeof GlyphFaceEntry>;

export const AssetsIndex = Type.Object({
  faces: Type.Array(GlyphFaceEntry),
  /** File names under sprite/. */
  sprite_files: Type.Array(Type.String()),
  /** File names under licences/. */
  licences: Type.Array(Type.String()),
});
export type AssetsIndex = Static<typeof AssetsIndex>;
