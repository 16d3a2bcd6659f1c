import { describe, expect, it } from 'vitest';
import { combineGlyphRanges } from '../../engines/assets/combine-glyphs.ts';
import { decodeGlyphPbf, encodeGlyphRange, type Glyph } from '../../engines/assets/glyph-pbf.ts';
import { parseFontstack, parseRangeFile } from '../../engines/assets/glyph-request.ts';
import { flattenOutline } from '../../engines/assets/outline.ts';
import { sdfGlyph } from '../../engines/assets/sdf.ts';
import { parseSpriteFile } from '../../engines/assets/sprite-file.ts';

const glyph = (id: number, extra: Partial<Glyph> = {}): Glyph => ({ id, width: 2, height: 1, left: -1, top: -9, advance: 5, bitmap: new Uint8Array(8 * 7).fill(id % 256), ...extra });

describe('glyphs.proto encoding', () => {
  it('round-trips names, ranges and every glyph field, negative left/top included, blank glyphs without a bitmap', () => {
    const message = { name: 'Noto Sans Regular', range: '0-255', glyphs: [glyph(32, { width: 0, height: 0, bitmap: undefined, top: -25 }), glyph(65), glyph(200, { left: 3, top: 4 })] };
    const [decoded, ...rest] = decodeGlyphPbf(encodeGlyphRange(message));
    expect(rest).toEqual([]);
    expect(decoded!.name).toBe('Noto Sans Regular');
    expect(decoded!.range).toBe('0-255');
    expect(decoded!.glyphs.map(({ bitmap, ...g }) => ({ ...g, bitmap: bitmap ? [...bitmap] : undefined })))
      .toEqual(message.glyphs.map(({ bitmap, ...g }) => ({ ...g, bitmap: bitmap ? [...bitmap] : undefined })));
  });

  it('combines stacks: the first font with a code point wins, ids sorted', () => {
    const first = [glyph(66, { advance: 1 }), glyph(65, { advance: 1 })];
    const second = [glyph(65, { advance: 2 }), glyph(67, { advance: 2 })];
    const combined = combineGlyphRanges('A,B', '0-255', [first, second]);
    expect(combined.glyphs.map((g) => [g.id, g.advance])).toEqual([[65, 1], [66, 1], [67, 2]]);
  });
});

describe('SDF from an outline', () => {
  it('cuts a 10 px square with fontnik metrics: rounded bbox, 3 px buffer, edge ≈ 191, inside bright, far outside 0', () => {
    const square = flattenOutline([
      { type: 'M', x: 100, y: 0 }, { type: 'L', x: 1100, y: 0 }, { type: 'L', x: 1100, y: 1000 }, { type: 'L', x: 100, y: 1000 }, { type: 'Z' },
    ], 0.01);
    const g = sdfGlyph(square, { id: 1, advance: 12, ascender: 25 });
    expect({ width: g.width, height: g.height, left: g.left, top: g.top, advance: g.advance }).toEqual({ width: 10, height: 10, left: 1, top: -15, advance: 12 });
    expect(g.bitmap!.length).toBe(16 * 16);
    const at = (x: number, y: number) => g.bitmap![y * 16 + x]!;
    expect(at(8, 8)).toBe(255); // centre: 5 px inside
    expect(at(0, 0)).toBeLessThan(100); // corner of the buffer: outside
    expect(Math.abs(at(3, 8) - 191)).toBeLessThanOrEqual(16); // first pixel inside the left edge (0.5 px in)
    expect(at(2, 8)).toBeLessThan(at(3, 8));
  });

  it('keeps overlapping contours filled (nonzero rule) and draws nothing for a blank glyph', () => {
    const rect = (x0: number, x1: number) => [
      { type: 'M' as const, x: x0, y: 0 }, { type: 'L' as const, x: x1, y: 0 }, { type: 'L' as const, x: x1, y: 10 }, { type: 'L' as const, x: x0, y: 10 }, { type: 'Z' as const },
    ];
    const g = sdfGlyph(flattenOutline([...rect(0, 10), ...rect(4, 14)], 1), { id: 2, advance: 15, ascender: 25 });
    const w = g.width + 6;
    const inBoth = g.bitmap![(g.height + 6 - 1 - (5 + 3)) * w + (7 + 3)]!; // x = 7, y = 5: 3 px from the nearest edge
    expect(inBoth).toBe(255); // the even-odd rule would make it a hole (≈ 95)
    expect(sdfGlyph([], { id: 32, advance: 6, ascender: 25 })).toEqual({ id: 32, width: 0, height: 0, left: 0, top: -25, advance: 6 });
  });
});

describe('glyph and sprite URL parts', () => {
  it('accepts ranges N-(N+255).pbf for N a multiple of 256 up to 65280 only', () => {
    expect(parseRangeFile('0-255.pbf')).toBe(0);
    expect(parseRangeFile('5120-5375.pbf')).toBe(5120);
    expect(parseRangeFile('65280-65535.pbf')).toBe(65280);
    for (const bad of ['0-255', '1-256.pbf', '0-254.pbf', '65536-65791.pbf', '00-255.pbf', '256-255.pbf', 'a-b.pbf', '-256-0.pbf']) expect(parseRangeFile(bad)).toBeNull();
  });

  it('splits fontstacks; empty names, control characters and over-long stacks are malformed', () => {
    expect(parseFontstack('Noto Sans Regular')).toEqual(['Noto Sans Regular']);
    expect(parseFontstack('Noto Sans Regular, Noto Sans Canadian Aboriginal Regular')).toEqual(['Noto Sans Regular', 'Noto Sans Canadian Aboriginal Regular']);
    for (const bad of ['', ',', 'A,,B', 'A,', ' ', 'A\nB', 'A\u0000', 'x'.repeat(257), Array(9).fill('A').join(',')]) expect(parseFontstack(bad)).toBeNull();
  });

  it('versions are positive integers', () => {
  });

  it('sprite files: sheet[@2x].json|png; other extensions malformed, other names unknown', () => {
    expect(parseSpriteFile('muted-dark@2x.png')).toEqual({ ok: true, file: 'muted-dark@2x.png', type: 'image/png' });
    expect(parseSpriteFile('light.json')).toMatchObject({ ok: true, type: 'application/json' });
    for (const bad of ['light.gif', 'light', 'light.json.gz']) expect(parseSpriteFile(bad)).toEqual({ ok: false, reason: 'extension' });
    for (const unknown of ['white.json', 'light@3x.png', 'grayscale@2x.json', '.png']) expect(parseSpriteFile(unknown)).toEqual({ ok: false, reason: 'unknown' });
  });
});
