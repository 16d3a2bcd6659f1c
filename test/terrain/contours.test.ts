import { beforeAll, describe, expect, it } from 'vitest';
import { contourInterval, contourLevels, isIndexContour } from '../../engines/terrain/contour-interval.ts';
import { contourTile, gridContours, type ContourFeature } from '../../engines/terrain/contour-tile.ts';
import { tileFraction } from '../../engines/terrain/web-mercator.ts';
import { loadDemFixture, tileAt, type DemFixture } from './dem-fixture.ts';

let fx: DemFixture;
beforeAll(async () => {
  fx = await loadDemFixture();
});

describe('contour intervals', () => {
  it('follows the zoom', () => {
    expect([9, 10, 11, 12, 13, 14].map(contourInterval)).toEqual([100, 50, 50, 20, 20, 20]);
    expect(() => contourInterval(8)).toThrow(RangeError);
  });

  it('never has a 0 m level, below sea level included', () => {
    expect(contourLevels(-30, 250, 50)).toEqual([50, 100, 150, 200, 250]);
    expect(contourLevels(-120, -10, 50)).toEqual([-100, -50]);
    expect(contourLevels(-5, 19, 20)).toEqual([]);
  });

  it('makes every fifth interval an index contour', () => {
    expect([100, 200, 500, 1000].map((l) => isIndexContour(l, 100))).toEqual([false, false, true, true]);
    expect([50, 250, 500].map((l) => isIndexContour(l, 50))).toEqual([false, true, true]);
    expect([-100, -40, 60].map((l) => isIndexContour(l, 20))).toEqual([true, false, false]);
  });
});

describe('contour tiles of the real DEM', () => {
  /** |DEM height − line height| at every vertex the DEM has a height for, sorted, and how many it has none for. */
  const vertexErrors = (features: ContourFeature[]) => {
    const errors: number[] = [];
    let unsampled = 0;
    for (const f of features) {
      for (const [lng, lat] of f.geometry.coordinates) {
        const metres = fx.dem.elevationAt(lng!, lat!);
        if (metres === null) unsampled++;
        else errors.push(Math.abs(metres - f.properties.ele));
      }
    }
    return { errors: errors.sort((a, b) => a - b), unsampled };
  };
  const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]!;

  for (const [lng, lat, z] of [[-124.1, 48.1, 12], [-124.1, 48.1, 13], [-124.5, 48.2, 10], [-124.5, 48.3, 9]] as const) {
    it(`runs where the DEM has the line's height (z${z} at ${lng}, ${lat})`, () => {
      const tile = tileAt(lng, lat, z);
      const interval = contourInterval(z);
      const features = contourTile(fx.dem, tile);
      expect(features.length).toBeGreaterThan(20);
      const { errors, unsampled } = vertexErrors(features);
      expect(unsampled).toBeLessThan(errors.length / 1000);
      // vertices are interpolated between grid samples ~tile/256 apart, not between the DEM's posts
      expect(quantile(errors, 0.5)).toBeLessThan(interval / 20);
      expect(quantile(errors, 0.99)).toBeLessThan(interval / 4);
      for (const f of features) {
        expect(Math.abs(f.properties.ele % interval)).toBe(0);
        expect(f.properties.ele).not.toBe(0);
        expect(f.properties.index).toBe(isIndexContour(f.properties.ele, interval));
        expect(f.geometry.coordinates.length).toBeGreaterThan(1);
      }
      expect(features.some((f) => f.properties.index)).toBe(true);
    });
  }

  it('draws no 0 m line along a coast where the sea is 0 m, and keeps lines within the buffer', () => {
    const tile = tileAt(-124.6, 48.35, 12);
    const features = contourTile(fx.dem, tile, { cells: 256, buffer: 8 });
    expect(features.length).toBeGreaterThan(0);
    expect(Math.min(...features.map((f) => f.properties.ele))).toBe(20);
    for (const f of features) {
      for (const [lng, lat] of f.geometry.coordinates) {
        const { u, v } = tileFraction(tile, lng!, lat!);
        for (const t of [u, v]) expect(t >= -8 / 256 - 1e-9 && t <= 1 + 8 / 256 + 1e-9).toBe(true);
      }
    }
  });

  it('is empty where the DEM has nothing', () => {
    expect(contourTile(fx.dem, tileAt(-79.38, 43.65, 12))).toEqual([]);
    expect(contourTile(fx.dem, tileAt(-124.5, 48.8, 12))).toEqual([]);
  });

  it('takes an interval of its own', () => {
    const tile = tileAt(-124.1, 48.1, 12);
    const features = contourTile(fx.dem, tile, { interval: 100 });
    expect(new Set(features.map((f) => f.properties.ele % 100))).toEqual(new Set([0]));
    expect(() => gridContours({ width: 1, height: 1, values: new Float64Array(1), tile, cells: 1, buffer: 0, range: [0, 0] }, 0)).toThrow(RangeError);
  });
});
