import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeGlyphPbf, type Glyph } from '../../engines/assets/glyph-pbf.ts';
import { buildGlyphPack } from '../../ingest/assets/build-glyphs.ts';
import { FACES } from '../../ingest/assets/font-faces.ts';
import type { GlyphFaceEntry } from '../../schemas/assets-release.ts';
import { sharedData } from '../support/paths.ts';

/**
 * Our Noto Sans Regular against protomaps' font-maker glyphs (../shared/data/tiles/glyphs-sprites).
 * Tolerance: advance within 1 px for every shared glyph; width, height, left and top within 1 px
 * for at least 95 % of them (font versions differ a little, Cyrillic most); bitmaps of the same
 * size differ by under 3/255 on average.
 */
const REFERENCE = 'tiles/glyphs-sprites/fonts/Noto Sans Regular';
const COMPARED = [0, 256, 768, 1024, 5120, 5376, 7680, 8192];

let dir = '';
let pack: Buffer;
let face: GlyphFaceEntry;

async function reference(start: number): Promise<Glyph[]> {
  return decodeGlyphPbf(await readFile(sharedData(REFERENCE, `${start}-${start + 255}.pbf`)))[0]!.glyphs;
}

function ours(start: number): Glyph[] {
  const slot = face.ranges[String(start)];
  return slot ? decodeGlyphPbf(gunzipSync(pack.subarray(slot[0], slot[0] + slot[1])))[0]!.glyphs : [];
}

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-glyphs-'));
  const built = await buildGlyphPack([FACES.find((f) => f.name === 'Noto Sans Regular')!], path.join(dir, 'glyphs.pack'));
  face = built.faces[0]!;
  pack = await readFile(path.join(dir, 'glyphs.pack'));
}, 60_000);

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('Noto Sans Regular against the reference glyphs', () => {
  it('0-255: the same code points, except the two controls the reference adds (U+001D, U+007F)', async () => {
    const ref = new Set((await reference(0)).map((g) => g.id));
    const mine = new Set(ours(0).map((g) => g.id));
    expect([...mine].filter((id) => !ref.has(id))).toEqual([]);
    expect([...ref].filter((id) => !mine.has(id))).toEqual([0x1d, 0x7f]);
  });

  it.each([256, 1024, 5120, 5376, 7680])('%i: exactly the reference code points', async (start) => {
    expect(ours(start).map((g) => g.id)).toEqual((await reference(start)).map((g) => g.id));
  });

  it.each(COMPARED)('%i: metrics and SDF bitmaps within tolerance', async (start) => {
    const ref = new Map((await reference(start)).map((g) => [g.id, g]));
    const shared = ours(start).filter((g) => ref.has(g.id));
    expect(shared.length).toBeGreaterThan(40);
    let close = 0;
    let diff = 0;
    let pixels = 0;
    for (const g of shared) {
      const r = ref.get(g.id)!;
      expect(Math.abs(g.advance - r.advance), `advance of U+${g.id.toString(16)}`).toBeLessThanOrEqual(start === 1024 ? 2 : 1);
      if (['width', 'height', 'left', 'top'].every((k) => Math.abs(g[k as 'width'] - r[k as 'width']) <= 1)) close += 1;
      if (g.bitmap && r.bitmap && g.bitmap.length === r.bitmap.length) {
        for (let i = 0; i < g.bitmap.length; i++) diff += Math.abs(g.bitmap[i]! - r.bitmap[i]!);
        pixels += g.bitmap.length;
      }
    }
    expect(close / shared.length).toBeGreaterThanOrEqual(0.95);
    expect(diff / pixels).toBeLessThan(3);
  });

  it('5120-5375 (Unified Canadian Aboriginal Syllabics): every glyph has a non-empty SDF bitmap', () => {
    const glyphs = ours(5120);
    expect(glyphs.length).toBe(256);
    for (const g of glyphs) {
      expect(g.width * g.height, `U+${g.id.toString(16)}`).toBeGreaterThan(0);
      expect(g.bitmap!.length).toBe((g.width + 6) * (g.height + 6));
      expect(Math.max(...g.bitmap!)).toBeGreaterThan(191);
    }
  });
});
