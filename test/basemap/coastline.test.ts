import { describe, expect, it } from 'vitest';
import { coastLand, joinChains, SNAP_DEGREES } from '../../ingest/basemap/coastline.ts';
import { polygonContains } from '../../lib/geo/planar.ts';
import type { Box } from '../../lib/geo/clip-box.ts';

type Point = [number, number];
const BOX: Box = [0, 0, 10, 10];
const flat = (ring: Point[]) => new Float64Array(ring.flat());
const isLand = (polygons: Point[][][], x: number, y: number) => polygons.some((p) => polygonContains(p.map(flat), x, y));

function land(coast: Point[][]): Point[][][] {
  const result = coastLand(coast, BOX);
  if (!result.ok) throw new Error(result.reason);
  return result.polygons;
}

describe('land from coastlines', () => {
  it('puts the land on the left of the coast, closing along the box edge counterclockwise', () => {
    // West to east across the box: land to the north.
    const north = land([[[-2, 5], [5, 5], [12, 5]]]);
    expect(isLand(north, 5, 8)).toBe(true);
    expect(isLand(north, 5, 2)).toBe(false);
    // The same coast drawn the other way: land to the south.
    const south = land([[[12, 5], [5, 5], [-2, 5]]]);
    expect(isLand(south, 5, 2)).toBe(true);
    expect(isLand(south, 5, 8)).toBe(false);
  });

  it('joins coastline ways end to start, in any order, into one coast', () => {
    expect(joinChains([[[5, 5], [12, 5]], [[-2, 5], [1, 5], [5, 5]]])).toEqual([[[-2, 5], [1, 5], [5, 5], [12, 5]]]);
    const split = land([[[5, 5], [12, 5]], [[-2, 5], [5, 5]]]);
    expect(isLand(split, 5, 8)).toBe(true);
  });

  it('makes a bay: two coasts leave land on both sides of a strip of sea', () => {
    // Sea is a vertical strip x 4..6: the west coast runs north (land west), the east one south (land east).
    const polygons = land([[[4, -1], [4, 11]], [[6, 11], [6, -1]]]);
    expect(isLand(polygons, 2, 5)).toBe(true);
    expect(isLand(polygons, 8, 5)).toBe(true);
    expect(isLand(polygons, 5, 5)).toBe(false);
    expect(polygons).toHaveLength(2);
  });

  it('takes a closed counterclockwise coast inside the box as an island', () => {
    const island: Point[] = [[2, 2], [4, 2], [4, 4], [2, 4], [2, 2]];
    const polygons = land([island]);
    expect(isLand(polygons, 3, 3)).toBe(true);
    expect(isLand(polygons, 6, 6)).toBe(false);
  });

  it('moves a coast that stops just short of the edge onto it (a clipped extract drops the node beyond)', () => {
    const short = SNAP_DEGREES / 2;
    const polygons = land([[[short, 5], [10 - short, 5]]]);
    expect(isLand(polygons, 5, 8)).toBe(true);
    expect(isLand(polygons, 5, 2)).toBe(false);
  });

  it('gives up when a coast ends inside the box or there is none', () => {
    expect(coastLand([[[-2, 5], [5, 5]]], BOX)).toEqual({ ok: false, reason: 'a coastline stops inside the box at 5,5' });
    expect(coastLand([], BOX)).toEqual({ ok: false, reason: 'no coastline in the box' });
  });
});
