import { open } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { encodeGlyphRange, type Glyph } from '../../engines/assets/glyph-pbf.ts';
import { RANGE_SIZE, rangeName } from '../../engines/assets/glyph-request.ts';
import { flattenOutline, type PathCommand } from '../../engines/assets/outline.ts';
import { sdfGlyph } from '../../engines/assets/sdf.ts';
import type { GlyphFaceEntry } from '../../schemas/assets-release.ts';
import { FontCache, loadFaceStack, type GlyphSource } from './face-stack.ts';
import type { FaceDefinition } from './font-faces.ts';

export interface GlyphBuildStats {
  faces: number;
  ranges: number;
  glyphs: number;
  /** Distinct outlines turned into SDFs (faces share their fallback fonts). */
  rendered: number;
  pack_bytes: number;
}

/** One outline's SDF, shared by every face and code point that draws it. */
class GlyphRenderer {
  private readonly rendered = new Map<string, Omit<Glyph, 'id'>>();

  get count(): number {
    return this.rendered.size;
  }

  glyph(codePoint: number, source: GlyphSource): Glyph {
    const key = `${source.font.path}#${source.glyphIndex}`;
    let glyph = this.rendered.get(key);
    if (!glyph) {
      const { font, scale, ascender } = source.font;
      const outline = font.glyphs.get(source.glyphIndex);
      const rings = flattenOutline(outline.path.commands as PathCommand[], scale);
      // FreeType's unhinted advance, truncated to whole px like fontnik's `horiAdvance / 64`.
      const advance = Math.trunc(Math.round((outline.advanceWidth ?? 0) * scale * 64) / 64);
      const { id: _id, ...rest } = sdfGlyph(rings, { id: codePoint, advance, ascender });
      glyph = rest;
      this.rendered.set(key, glyph);
    }
    return { id: codePoint, ...glyph };
  }
}

/** Every face's non-empty ranges, gzip-compressed glyph pbfs appended to `packFile`; returns the index. */
export async function buildGlyphPack(faces: readonly FaceDefinition[], packFile: string): Promise<{ faces: GlyphFaceEntry[]; stats: GlyphBuildStats }> {
  const cache = new FontCache();
  const renderer = new GlyphRenderer();
  const out = await open(packFile, 'w');
  const entries: GlyphFaceEntry[] = [];
  const stats: GlyphBuildStats = { faces: faces.length, ranges: 0, glyphs: 0, rendered: 0, pack_bytes: 0 };
  try {
    for (const face of faces) {
      const codePoints = await loadFaceStack(face, cache);
      const byRange = new Map<number, number[]>();
      for (const cp of [...codePoints.keys()].sort((a, b) => a - b)) {
        const start = cp - (cp % RANGE_SIZE);
        byRange.set(start, [...(byRange.get(start) ?? []), cp]);
      }
      const entry: GlyphFaceEntry = { name: face.name, ranges: {} };
      for (const [start, cps] of byRange) {
        const glyphs = cps.map((cp) => renderer.glyph(cp, codePoints.get(cp)!));
        const bytes = gzipSync(encodeGlyphRange({ name: face.name, range: rangeName(start), glyphs }), { level: 9 });
        await out.write(bytes);
        entry.ranges[String(start)] = [stats.pack_bytes, bytes.length, glyphs.length];
        stats.pack_bytes += bytes.length;
        stats.ranges += 1;
        stats.glyphs += glyphs.length;
      }
      entries.push(entry);
    }
    await out.sync();
  } finally {
    await out.close();
  }
  stats.rendered = renderer.count;
  return { faces: entries, stats };
}
