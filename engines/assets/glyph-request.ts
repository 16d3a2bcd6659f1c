/**
 * The parts of a glyph URL, `/glyphs/{version}/{fontstack}/{range}.pbf`: what is well formed.
 * Whether the fonts exist is the open release's business (assets.ts).
 */

/** Code points per glyph range file; ranges start at multiples of it, up to 65280-65535. */
export const RANGE_SIZE = 256;
export const LAST_RANGE_START = 65536 - RANGE_SIZE;

/** A stack longer than this, or naming more fonts, is malformed (MapLibre sends one to three). */
export const MAX_FONTSTACK_CHARS = 256;
export const MAX_FONTSTACK_FONTS = 8;

export const rangeName = (start: number): string => `${start}-${start + RANGE_SIZE - 1}`;

/** `N-(N+255).pbf` with N a multiple of 256 up to 65280 → N; anything else → null. */
export function parseRangeFile(file: string): number | null {
  const match = /^(\d{1,5})-(\d{1,5})\.pbf$/.exec(file);
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  if (start % RANGE_SIZE !== 0 || start > LAST_RANGE_START || end !== start + RANGE_SIZE - 1) return null;
  if (match[1] !== String(start) || match[2] !== String(end)) return null; // no leading zeros
  return start;
}

// C0 and C1 controls, DEL, and the line/paragraph separators: never part of a font name.
const CONTROL = /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/;

/** A comma-separated fontstack → its font names (trimmed); null when malformed. */
export function parseFontstack(fontstack: string): string[] | null {
  if (fontstack.length === 0 || fontstack.length > MAX_FONTSTACK_CHARS || CONTROL.test(fontstack)) return null;
  const names = fontstack.split(',').map((name) => name.trim());
  if (names.length > MAX_FONTSTACK_FONTS || names.some((name) => name === '')) return null;
  return names;
}
