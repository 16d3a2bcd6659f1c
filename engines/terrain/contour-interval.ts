/**
 * The contour interval of each zoom the contour tiles are made for (9–13, the spec's range; 14 is
 * what clients overzoom): 100 m at z9, 50 m at z10–11, 20 m from z12. Every fifth line (a multiple
 * of five intervals) is an index contour, the one maps draw bolder and label.
 */

export const CONTOUR_MIN_ZOOM = 9;
export const CONTOUR_MAX_ZOOM = 13;
export const INDEX_EVERY = 5;

export function contourInterval(z: number): number {
  if (!Number.isInteger(z) || z < CONTOUR_MIN_ZOOM) throw new RangeError(`no contours below zoom ${CONTOUR_MIN_ZOOM} (asked ${z})`);
  if (z === 9) return 100;
  if (z <= 11) return 50;
  return 20;
}

/** The levels between min and max (inclusive) at this interval, never 0 m: the coast is not a contour. */
export function contourLevels(min: number, max: number, interval: number): number[] {
  const levels: number[] = [];
  for (let level = Math.ceil(min / interval) * interval; level <= max; level += interval) {
    if (level !== 0) levels.push(level);
  }
  return levels;
}

export function isIndexContour(level: number, interval: number): boolean {
  return Math.round(level / interval) % INDEX_EVERY === 0;
}
