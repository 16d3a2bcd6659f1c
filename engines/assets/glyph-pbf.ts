/**
 * MapLibre's glyphs.proto: `glyphs { repeated fontstack stacks = 1; }`,
 * `fontstack { name = 1; range = 2; repeated glyph glyphs = 3; }`,
 * `glyph { id = 1; bitmap = 2; width = 3; height = 4; left = 5 (sint32); top = 6 (sint32); advance = 7; }`.
 * The bitmap is an 8-bit SDF of (width + 6) × (height + 6) pixels (3 px buffer), absent for blank glyphs.
 */
import { PbfReader, PbfWriter } from 'pbf';

export interface Glyph {
  id: number;
  /** Absent (or empty) for glyphs that draw nothing (space, controls). */
  bitmap?: Uint8Array;
  width: number;
  height: number;
  left: number;
  top: number;
  advance: number;
}

export interface GlyphRangeMessage {
  name: string;
  range: string;
  glyphs: Glyph[];
}

/** Pixels of SDF margin around every glyph bitmap. */
export const GLYPH_BUFFER = 3;

export function encodeGlyphRange(message: GlyphRangeMessage): Uint8Array {
  const pbf = new PbfWriter();
  pbf.writeMessage(1, (stack: GlyphRangeMessage, out: PbfWriter) => {
    out.writeStringField(1, stack.name);
    out.writeStringField(2, stack.range);
    for (const glyph of stack.glyphs) out.writeMessage(3, writeGlyph, glyph);
  }, message);
  return pbf.finish();
}

function writeGlyph(glyph: Glyph, out: PbfWriter): void {
  out.writeVarintField(1, glyph.id);
  if (glyph.bitmap && glyph.bitmap.length > 0) out.writeBytesField(2, glyph.bitmap);
  out.writeVarintField(3, glyph.width);
  out.writeVarintField(4, glyph.height);
  out.writeSVarintField(5, glyph.left);
  out.writeSVarintField(6, glyph.top);
  out.writeVarintField(7, glyph.advance);
}

/** Every fontstack message of a glyph pbf (one for what we and font-maker write). */
export function decodeGlyphPbf(bytes: Uint8Array): GlyphRangeMessage[] {
  const stacks: GlyphRangeMessage[] = [];
  new PbfReader(bytes).readFields((tag, out, pbf) => {
    if (tag === 1) out.push(pbf.readMessage(readStack, { name: '', range: '', glyphs: [] }));
  }, stacks);
  return stacks;
}

function readStack(tag: number, stack: GlyphRangeMessage, pbf: PbfReader): void {
  if (tag === 1) stack.name = pbf.readString();
  else if (tag === 2) stack.range = pbf.readString();
  else if (tag === 3) stack.glyphs.push(pbf.readMessage(readGlyph, { id: 0, width: 0, height: 0, left: 0, top: 0, advance: 0 }));
}

function readGlyph(tag: number, glyph: Glyph, pbf: PbfReader): void {
  if (tag === 1) glyph.id = pbf.readVarint();
  else if (tag === 2) glyph.bitmap = pbf.readBytes();
  else if (tag === 3) glyph.width = pbf.readVarint();
  else if (tag === 4) glyph.height = pbf.readVarint();
  else if (tag === 5) glyph.left = pbf.readSVarint();
  else if (tag === 6) glyph.top = pbf.readSVarint();
  else if (tag === 7) glyph.advance = pbf.readVarint();
}
