import { describe, expect, it } from 'vitest';
import { lineTouchesBox, nearestFractionToOrigin, polygonContains, polygonTouchesBox, ringArea, ringSide } from '../../lib/geo/planar.ts';

const square = [0, 0, 10, 0, 10, 10, 0, 10, 0, 0];
const hole = [4, 4, 4, 6, 6, 6, 6, 4, 4, 4];

describe('planar predicates (lib/geo/planar.ts)', () => {
  it('tells inside, outside and boundary apart', () => {
    expect(ringSide(square, 5, 5)).toBe(1);
    expect(ringSide(square, 11, 5)).toBe(0);
    expect(ringSide(square, 10, 5)).toBe(-1);
    expect(ringSide(square, 0, 0)).toBe(-1);
    // A dart whose tip (4,2) and notch (2,2) lie on the ray of y = 2: neither may count twice.
    expect(ringSide([0, 0, 4, 2, 0, 4, 2, 2, 0, 0], 3, 2)).toBe(1);
    expect(ringSide([0, 0, 4, 2, 0, 4, 2, 2, 0, 0], 1, 2)).toBe(0);
    expect(ringSide([0, 0, 4, 2, 0, 4, 2, 2, 0, 0], 3, 2.9)).toBe(0);
  });

  it('keeps holes out of a polygon but their edges in it', () => {
    expect(polygonContains([square, hole], 5, 5)).toBe(false);
    expect(polygonContains([square, hole], 4, 5)).toBe(true);
    expect(polygonContains([square, hole], 2, 2)).toBe(true);
    expect(polygonContains([square, hole], -1, 2)).toBe(false);
  });

  it('finds a box meeting a polygon by a vertex, an edge crossing, or lying inside it', () => {
    expect(polygonTouchesBox([square], [9, 9, 12, 12])).toBe(true);
    expect(polygonTouchesBox([square], [-2, 4, 12, 5])).toBe(true);
    expect(polygonTouchesBox([square], [1, 1, 2, 2])).toBe(true);
    expect(polygonTouchesBox([square, hole], [4.5, 4.5, 5.5, 5.5])).toBe(false);
    expect(polygonTouchesBox([square], [11, 11, 12, 12])).toBe(false);
    expect(polygonTouchesBox([square], [10, 2, 12, 3])).toBe(true);
  });

  it('finds a line crossing a box with no vertex in it', () => {
    expect(lineTouchesBox([-5, 5, 15, 5], [0, 0, 10, 10])).toBe(true);
    expect(lineTouchesBox([-5, 15, 15, 15], [0, 0, 10, 10])).toBe(false);
  });

  it('measures signed area (counter-clockwise positive)', () => {
    expect(ringArea(square)).toBe(100);
    expect(ringArea(hole)).toBe(-4);
  });

  it('projects the origin onto a segment: inside it, clamped to either end, or 0 for no length', () => {
    expect(nearestFractionToOrigin(-1, 1, 3, 1)).toBe(0.25);
    expect(nearestFractionToOrigin(1, 1, 3, 1)).toBe(0);
    expect(nearestFractionToOrigin(-3, 1, -1, 1)).toBe(1);
    expect(nearestFractionToOrigin(2, 2, 2, 2)).toBe(0);
  });
});
