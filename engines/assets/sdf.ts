/**
 * A glyph's signed distance field and metrics from its flattened outline, with the conventions
 * of node-fontnik / font-maker (what MapLibre's glyph shader and shaping expect): 24 px em,
 * bbox rounded to whole pixels, 3 px buffer, 8 px radius, cutoff 0.25 (edge ≈ 191), rows top
 * first, `top` = bbox top − font ascender (both px). Inside is decided by the nonzero rule, so
 * overlapping contours (common in fonts cut from variable masters) stay filled.
 */
import { GLYPH_BUFFER, type Glyph } from './glyph-pbf.ts';
import type { GlyphRing } from './outline.ts';

export const SDF_RADIUS = 8;
export const SDF_CUTOFF = 0.25;

export interface GlyphPlacement {
  id: number;
  /** Pen advance in px (already truncated to an integer as fontnik does). */
  advance: number;
  /** The font's ascender in px (an integer). */
  ascender: number;
}

/** Rings in px (y up, origin at the pen on the baseline) → the glyph record of the pbf. */
export function sdfGlyph(rings: readonly GlyphRing[], placement: GlyphPlacement): Glyph {
  const blank: Glyph = { id: placement.id, width: 0, height: 0, left: 0, top: -placement.ascender, advance: placement.advance };
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const ring of rings) {
    for (let i = 0; i < ring.length; i += 2) {
      minX = Math.min(minX, ring[i]!);
      maxX = Math.max(maxX, ring[i]!);
      minY = Math.min(minY, ring[i + 1]!);
      maxY = Math.max(maxY, ring[i + 1]!);
    }
  }
  if (rings.length === 0) return blank;
  [minX, minY, maxX, maxY] = [Math.round(minX), Math.round(minY), Math.round(maxX), Math.round(maxY)];
  const width = maxX - minX;
  const height = maxY - minY;
  if (width === 0 || height === 0) return blank;

  const w = width + 2 * GLYPH_BUFFER;
  const h = height + 2 * GLYPH_BUFFER;
  // Into bitmap space: (0, 0) is the bottom-left corner of the buffered bitmap.
  const shifted = rings.map((ring) => ring.map((v, i) => v - (i % 2 === 0 ? minX : minY) + GLYPH_BUFFER));
  const distance = nearestEdgeDistances(shifted, w, h);
  const inside = nonzeroInside(shifted, w, h);
  const bitmap = new Uint8Array(w * h);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      let d = distance[y * w + x]! * (256 / SDF_RADIUS);
      if (inside[y * w + x]) d = -d;
      d += SDF_CUTOFF * 256;
      const n = Math.min(255, Math.max(0, Math.trunc(d)));
      bitmap[(h - 1 - y) * w + x] = 255 - n;
    }
  }
  return { id: placement.id, bitmap, width, height, left: minX, top: maxY - placement.ascender, advance: placement.advance };
}

/** Distance from each pixel centre to the outline, capped at the radius: each segment touches only pixels near it. */
function nearestEdgeDistances(rings: readonly GlyphRing[], w: number, h: number): Float32Array {
  const out = new Float32Array(w * h).fill(SDF_RADIUS);
  for (const ring of rings) {
    const n = ring.length / 2;
    for (let i = 0; i < n; i++) {
      const ax = ring[2 * i]!;
      const ay = ring[2 * i + 1]!;
      const bx = ring[(2 * ((i + 1) % n))]!;
      const by = ring[(2 * ((i + 1) % n)) + 1]!;
      const dx = bx - ax;
      const dy = by - ay;
      const lengthSq = dx * dx + dy * dy;
      const x0 = Math.max(0, Math.floor(Math.min(ax, bx) - SDF_RADIUS - 0.5));
      const x1 = Math.min(w - 1, Math.ceil(Math.max(ax, bx) + SDF_RADIUS - 0.5));
      const y0 = Math.max(0, Math.floor(Math.min(ay, by) - SDF_RADIUS - 0.5));
      const y1 = Math.min(h - 1, Math.ceil(Math.max(ay, by) + SDF_RADIUS - 0.5));
      for (let y = y0; y <= y1; y++) {
        const py = y + 0.5;
        for (let x = x0; x <= x1; x++) {
          const px = x + 0.5;
          let t = lengthSq === 0 ? 0 : ((px - ax) * dx + (py - ay) * dy) / lengthSq;
          t = t < 0 ? 0 : t > 1 ? 1 : t;
          const d = Math.hypot(px - (ax + t * dx), py - (ay + t * dy));
          if (d < out[y * w + x]!) out[y * w + x] = d;
        }
      }
    }
  }
  return out;
}

/** Whether each pixel centre is inside (nonzero winding), one scanline at a time. */
function nonzeroInside(rings: readonly GlyphRing[], w: number, h: number): Uint8Array {
  const inside = new Uint8Array(w * h);
  const crossings: { x: number; dir: number }[] = [];
  for (let y = 0; y < h; y++) {
    const py = y + 0.5;
    crossings.length = 0;
    for (const ring of rings) {
      const n = ring.length / 2;
      for (let i = 0; i < n; i++) {
        const ax = ring[2 * i]!;
        const ay = ring[2 * i + 1]!;
        const bx = ring[(2 * ((i + 1) % n))]!;
        const by = ring[(2 * ((i + 1) % n)) + 1]!;
        if ((ay <= py) === (by <= py)) continue;
        crossings.push({ x: ax + ((py - ay) / (by - ay)) * (bx - ax), dir: by > ay ? 1 : -1 });
      }
    }
    if (crossings.length === 0) continue;
    crossings.sort((a, b) => a.x - b.x);
    let winding = 0;
    let next = 0;
    for (let x = 0; x < w; x++) {
      const px = x + 0.5;
      while (next < crossings.length && crossings[next]!.x < px) winding += crossings[next++]!.dir;
      if (winding !== 0) inside[y * w + x] = 1;
    }
  }
  return inside;
}
