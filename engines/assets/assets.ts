import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { Value } from '@sinclair/typebox/value';
import {
  ASSETS_INDEX_FILE, AssetsIndex, GLYPH_PACK_FILE, SPRITE_DIR, type GlyphFaceEntry,
} from '../../schemas/assets-release.ts';
import { combineGlyphRanges } from './combine-glyphs.ts';
import { LruMap } from '../../lib/lru-map.ts';
import { decodeGlyphPbf, encodeGlyphRange } from './glyph-pbf.ts';
import { rangeName } from './glyph-request.ts';

/** Combined stacks answered recently (MapLibre asks every range of a stack many times over). */
const COMBINED_CACHE_ENTRIES = 256;

export type GlyphAnswer = { ok: true; gzipped: Buffer; glyphs: number } | { ok: false; unknownFont: string };

/**
 * An open assets release: the glyph pack and sprite files in memory (a few MB), answered by
 * lookup. A single font's range is a slice of the pack; a combined stack merges the stored
 * ranges of its fonts (no SDF work) and is kept in a small LRU cache.
 */
export class Assets {
  private readonly combined = new LruMap<string, { gzipped: Buffer; glyphs: number }>(COMBINED_CACHE_ENTRIES);

  private constructor(
    readonly releaseId: string,
    private readonly faces: ReadonlyMap<string, GlyphFaceEntry>,
    private readonly pack: Buffer,
    private readonly sprites: ReadonlyMap<string, Buffer>,
  ) {}

  static async open(dir: string, releaseId: string): Promise<Assets> {
    const raw = JSON.parse(await readFile(path.join(dir, ASSETS_INDEX_FILE), 'utf8')) as unknown;
    const problem = Value.Errors(AssetsIndex, raw).First();
    if (problem) throw new Error(`${ASSETS_INDEX_FILE} does not match its schema: ${problem.path} ${problem.message}`);
    const index = raw as AssetsIndex;
    const pack = await readFile(path.join(dir, GLYPH_PACK_FILE));
    for (const face of index.faces) {
      for (const [start, [offset, length]] of Object.entries(face.ranges)) {
        if (offset + length > pack.length) throw new Error(`${GLYPH_PACK_FILE}: range ${start} of ${face.name} lies past the end`);
      }
    }
    const sprites = new Map<string, Buffer>();
    for (const file of index.sprite_files) sprites.set(file, await readFile(path.join(dir, SPRITE_DIR, file)));
    return new Assets(releaseId, new Map(index.faces.map((f) => [f.name, f])), pack, sprites);
  }

  fontNames(): string[] {
    return [...this.faces.keys()];
  }

  /** One range of a fontstack as a gzip glyph pbf; a known stack with nothing in the range gets an empty fontstack message. */
  glyphRange(fonts: readonly string[], start: number): GlyphAnswer {
    const entries: GlyphFaceEntry[] = [];
    for (const name of fonts) {
      const face = this.faces.get(name);
      if (!face) return { ok: false, unknownFont: name };
      entries.push(face);
    }
    const stackName = fonts.join(',');
    if (entries.length === 1) {
      const slot = entries[0]!.ranges[String(start)];
      if (slot) return { ok: true, gzipped: this.pack.subarray(slot[0], slot[0] + slot[1]), glyphs: slot[2] };
      return { ok: true, gzipped: gzipSync(encodeGlyphRange({ name: stackName, range: rangeName(start), glyphs: [] })), glyphs: 0 };
    }
    const key = `${start}/${stackName}`;
    let answer = this.combined.get(key);
    if (!answer) {
      const perFont = entries.map((face) => {
        const slot = face.ranges[String(start)];
        return slot ? decodeGlyphPbf(gunzipSync(this.pack.subarray(slot[0], slot[0] + slot[1])))[0]?.glyphs ?? [] : [];
      });
      const message = combineGlyphRanges(stackName, rangeName(start), perFont);
      answer = { gzipped: gzipSync(encodeGlyphRange(message)), glyphs: message.glyphs.length };
      this.combined.set(key, answer);
    }
    return { ok: true, ...answer };
  }

  /** A sprite file by name (`light@2x.png`), or null. */
  spriteFile(file: string): Buffer | null {
    return this.sprites.get(file) ?? null;
  }
}
