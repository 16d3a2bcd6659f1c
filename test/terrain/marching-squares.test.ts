import { describe, expect, it } from 'vitest';
import { isolines, type Grid, type Line } from '../../engines/terrain/marching-squares.ts';

function gridOf(width: number, height: number, value: (x: number, y: number) => number): Grid {
  const values = new Float64Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) values[y * width + x] = value(x, y);
  return { width, height, values };
}

/** Whether every segment has `higher(x, y)` on its right (y down: the right normal of (dx, dy) is (−dy, dx)). */
function higherOnTheRight(line: Line, uphill: (x: number, y: number) => [number, number]): boolean {
  return line.every((p, i) => {
    const q = line[i + 1];
    if (!q) return true;
    const [ux, uy] = uphill((p[0] + q[0]) / 2, (p[1] + q[1]) / 2);
    return -(q[1] - p[1]) * ux + (q[0] - p[0]) * uy > 0;
  });
}

describe('marching squares', () => {
  it('puts a plane\'s isolines exactly where the plane has the level, uphill on the right', () => {
    const plane = (x: number, y: number) => 3 * x + 2 * y + 0.5;
    const grid = gridOf(30, 20, plane);
    for (const level of [10, 50.5, 77.25]) {
      const lines = isolines(grid, level);
      expect(lines).toHaveLength(1);
      const line = lines[0]!;
      for (const [x, y] of line) expect(plane(x, y)).toBeCloseTo(level, 9);
      // open: both ends on the grid's border
      for (const [x, y] of [line[0]!, line.at(-1)!]) expect(x === 0 || y === 0 || x === 29 || y === 19).toBe(true);
      expect(higherOnTheRight(line, () => [3, 2])).toBe(true);
    }
  });

  it('draws one vertex where a node lies exactly on the level', () => {
    const lines = isolines(gridOf(10, 10, (x, y) => x + y), 9);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    for (const [x, y] of line) expect(x + y).toBeCloseTo(9, 12);
    for (let i = 1; i < line.length; i++) expect(line[i]).not.toEqual(line[i - 1]);
  });

  it('rings a cone at the analytic radius, closed, the summit on the right', () => {
    const cone = (x: number, y: number) => 1000 - 10 * Math.hypot(x - 40, y - 40);
    const grid = gridOf(81, 81, cone);
    for (const level of [800, 950, 700.5]) {
      const lines = isolines(grid, level);
      expect(lines).toHaveLength(1);
      const ring = lines[0]!;
      expect(ring.at(-1)).toEqual(ring[0]);
      const radius = (1000 - level) / 10;
      for (const [x, y] of ring) expect(Math.abs(Math.hypot(x - 40, y - 40) - radius)).toBeLessThan(0.02);
      expect(ring.length).toBeGreaterThan(4 * radius);
      expect(higherOnTheRight(ring, (x, y) => [40 - x, 40 - y])).toBe(true);
    }
    expect(isolines(grid, 1001)).toEqual([]);
  });

  it('splits a saddle by its centre', () => {
    // high top-left and bottom-right: centre 5 counts as above, so the low corners are cut off
    const lines = isolines({ width: 2, height: 2, values: Float64Array.from([10, 0, 0, 10]) }, 5);
    expect(lines).toHaveLength(2);
    expect(lines.map((l) => l.length)).toEqual([2, 2]);
    // the midpoints of the segments cutting off top-right (1, 0) and bottom-left (0, 1); uphill is the centre
    const midpoints = lines.map(([p, q]) => [(p![0] + q![0]) / 2, (p![1] + q![1]) / 2]).sort((a, b) => a[0]! - b[0]!);
    expect(midpoints).toEqual([[0.25, 0.75], [0.75, 0.25]]);
    expect(lines.every((line) => higherOnTheRight(line, (x, y) => [0.5 - x, 0.5 - y]))).toBe(true);
  });

  it('ends lines where the data ends', () => {
    const cone = (x: number, y: number) => (x > 45 ? Number.NaN : 1000 - 10 * Math.hypot(x - 40, y - 40));
    const lines = isolines(gridOf(81, 81, cone), 800);
    expect(lines).toHaveLength(1);
    const line = lines[0]!;
    expect(line.at(-1)).not.toEqual(line[0]);
    for (const [x] of line) expect(x).toBeLessThanOrEqual(45);
    expect(Math.max(...line.map(([x]) => x))).toBe(45);
  });
});
