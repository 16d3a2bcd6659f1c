import { decode } from 'fast-png';

export interface PixelStats {
  pixels: number;
  /** Distinct RGB colours. */
  distinctColours: number;
  /** Share of the pixels that have the most common colour. */
  dominantShare: number;
  /** Standard deviation of the luminance (0..255). */
  luminanceStdDev: number;
}

/** Colour statistics of an 8-bit RGB(A) PNG (a Playwright screenshot). */
export function pixelStats(png: Uint8Array): PixelStats {
  const image = decode(png);
  if (image.depth !== 8 || image.channels < 3) throw new Error(`expected an 8-bit RGB(A) PNG, got depth ${image.depth} with ${image.channels} channels`);
  const counts = new Map<number, number>();
  const pixels = image.width * image.height;
  let sum = 0;
  let sumSq = 0;
  for (let i = 0; i < pixels; i++) {
    const o = i * image.channels;
    const [r, g, b] = [image.data[o]!, image.data[o + 1]!, image.data[o + 2]!];
    const rgb = (r << 16) | (g << 8) | b;
    counts.set(rgb, (counts.get(rgb) ?? 0) + 1);
    const y = 0.2126 * r + 0.7152 * g + 0.0722 * b;
    sum += y;
    sumSq += y * y;
  }
  const mean = sum / pixels;
  return {
    pixels,
    distinctColours: counts.size,
    dominantShare: Math.max(...counts.values()) / pixels,
    luminanceStdDev: Math.sqrt(Math.max(0, sumSq / pixels - mean * mean)),
  };
}

/**
 * What a drawn basemap at city zoom clears with room to spare: many colours (roads, water,
 * parks, antialiased labels), no colour over 80 % of the view, visible contrast. A map whose
 * tiles did not draw is one background colour.
 */
export const DRAWN_MAP = { minDistinctColours: 64, maxDominantShare: 0.8, minLuminanceStdDev: 6 };

export function looksDrawn(stats: PixelStats): boolean {
  return stats.distinctColours >= DRAWN_MAP.minDistinctColours
    && stats.dominantShare <= DRAWN_MAP.maxDominantShare
    && stats.luminanceStdDev >= DRAWN_MAP.minLuminanceStdDev;
}
