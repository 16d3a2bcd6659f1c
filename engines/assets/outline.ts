/**
 * Glyph outlines as closed polylines: path commands (font units, y up) flattened into line
 * segments in pixels, each curve cut finely enough to stay within FLATNESS_PX of the curve.
 */

/** The path command shapes opentype.js (and most outline readers) produce. */
export type PathCommand =
  | { type: 'M' | 'L'; x: number; y: number }
  | { type: 'Q'; x1: number; y1: number; x: number; y: number }
  | { type: 'C'; x1: number; y1: number; x2: number; y2: number; x: number; y: number }
  | { type: 'Z' };

/** A closed ring: x0, y0, x1, y1, ... (the closing segment back to the first point is implied). */
export type GlyphRing = number[];

const FLATNESS_PX = 0.05;
const MAX_PIECES = 32;

function pieces(secondDifference: number): number {
  return Math.min(MAX_PIECES, Math.max(1, Math.ceil(Math.sqrt(secondDifference / (4 * FLATNESS_PX)))));
}

/** Flattens `commands` scaled by `scale` (font units → pixels); y stays pointing up. */
export function flattenOutline(commands: readonly PathCommand[], scale: number): GlyphRing[] {
  const rings: GlyphRing[] = [];
  let ring: GlyphRing = [];
  let x = 0;
  let y = 0;
  const close = () => {
    if (ring.length >= 6) rings.push(ring);
    ring = [];
  };
  for (const c of commands) {
    if (c.type === 'M') {
      close();
      x = c.x * scale;
      y = c.y * scale;
      ring.push(x, y);
    } else if (c.type === 'L') {
      x = c.x * scale;
      y = c.y * scale;
      ring.push(x, y);
    } else if (c.type === 'Q') {
      const [x1, y1, x2, y2] = [c.x1 * scale, c.y1 * scale, c.x * scale, c.y * scale];
      const n = pieces(Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2));
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        ring.push(u * u * x + 2 * u * t * x1 + t * t * x2, u * u * y + 2 * u * t * y1 + t * t * y2);
      }
      x = x2;
      y = y2;
    } else if (c.type === 'C') {
      const [x1, y1, x2, y2, x3, y3] = [c.x1 * scale, c.y1 * scale, c.x2 * scale, c.y2 * scale, c.x * scale, c.y * scale];
      const dd = Math.max(Math.hypot(x - 2 * x1 + x2, y - 2 * y1 + y2), Math.hypot(x1 - 2 * x2 + x3, y1 - 2 * y2 + y3));
      const n = pieces(1.5 * dd);
      for (let i = 1; i <= n; i++) {
        const t = i / n;
        const u = 1 - t;
        const a = u * u * u;
        const b = 3 * u * u * t;
        const d = 3 * u * t * t;
        const e = t * t * t;
        ring.push(a * x + b * x1 + d * x2 + e * x3, a * y + b * y1 + d * y2 + e * y3);
      }
      x = x3;
      y = y3;
    } else {
      close();
    }
  }
  close();
  return rings;
}
