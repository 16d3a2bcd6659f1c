import { beforeAll, describe, expect, it } from 'vitest';
import { Dem } from '../../engines/terrain/dem.ts';
import { HGT_VOID, hgtCorner, parseHgt } from '../../engines/terrain/hgt.ts';
import { loadDemFixture, postLngLat, rawPost, type DemFixture } from './dem-fixture.ts';

let fx: DemFixture;
beforeAll(async () => {
  fx = await loadDemFixture();
});

describe('SRTM .hgt tiles', () => {
  it('reads the zipped tile as 1″ from its size, cornered at its name', () => {
    expect(fx.raw.length).toBe(3601 * 3601 * 2);
    expect(fx.tile).toMatchObject({ name: 'N48W125', south: 48, west: -125, size: 3601 });
    expect(fx.tile.samples.length).toBe(3601 * 3601);
  });

  it('names stand for their south-west corner', () => {
    expect(hgtCorner('N48W125')).toEqual({ south: 48, west: -125 });
    expect(hgtCorner('s12e034')).toEqual({ south: -12, west: 34 });
    expect(() => hgtCorner('N48W12')).toThrow(/not an SRTM tile name/);
    expect(() => hgtCorner('N95W125')).toThrow(/outside the globe/);
  });

  it('tells 3″ from the size and refuses other sizes', () => {
    const bytes = new Uint8Array(1201 * 1201 * 2);
    new DataView(bytes.buffer).setInt16(2 * (1201 + 2), -1234, false);
    const tile = parseHgt('N60W136.hgt', bytes);
    expect(tile).toMatchObject({ size: 1201, south: 60, west: -136 });
    expect(tile.samples[1201 + 2]).toBe(-1234);
    expect(() => parseHgt('N60W136.hgt', new Uint8Array(1000))).toThrow(/neither a 1″/);
  });
});

describe('Dem.elevationAt', () => {
  // posts with data (the tile is void north of lat 48.5, row 1800), corners and the highest post
  const posts: [number, number][] = [[1800, 0], [2000, 3200], [2400, 1600], [2801, 1207], [3575, 3513], [3600, 3600], [3600, 0], [3123, 2999]];

  it('is the raw sample at a post', () => {
    for (const [row, col] of posts) {
      const raw = rawPost(fx.raw, row, col);
      expect(raw).not.toBe(HGT_VOID);
      expect(fx.dem.elevationAt(...postLngLat(row, col)), `post ${row},${col}`).toBe(raw);
    }
    expect(fx.dem.elevationAt(...postLngLat(3575, 3513))).toBe(1095);
  });

  it('is null at a void post and north of the surveyed half', () => {
    expect(rawPost(fx.raw, 0, 0)).toBe(HGT_VOID);
    expect(fx.dem.elevationAt(...postLngLat(0, 0))).toBeNull();
    expect(fx.dem.elevationAt(-124.5, 48.75)).toBeNull();
  });

  it('is the mean of the neighbours midway between posts', () => {
    for (const [row, col] of [[2400, 1600], [2801, 1207], [3123, 2999], [3574, 3512]] as const) {
      const [tl, tr, bl, br] = [rawPost(fx.raw, row, col), rawPost(fx.raw, row, col + 1), rawPost(fx.raw, row + 1, col), rawPost(fx.raw, row + 1, col + 1)];
      const [lng, lat] = postLngLat(row + 0.5, col + 0.5);
      expect(fx.dem.elevationAt(lng, lat)).toBeCloseTo((tl + tr + bl + br) / 4, 6);
      expect(fx.dem.elevationAt(...postLngLat(row, col + 0.5))).toBeCloseTo((tl + tr) / 2, 6);
      expect(fx.dem.elevationAt(...postLngLat(row + 0.5, col))).toBeCloseTo((tl + bl) / 2, 6);
    }
  });

  it('leaves void posts out of the interpolation', () => {
    // the first post with data beside a void one, in the mixed rows south of lat 48.5
    let found: [number, number] | null = null;
    for (let row = 1801; row < 3600 && !found; row++) {
      for (let col = 0; col < 3600; col++) {
        if (rawPost(fx.raw, row, col) !== HGT_VOID && rawPost(fx.raw, row, col + 1) === HGT_VOID) {
          found = [row, col];
          break;
        }
      }
    }
    expect(found).not.toBeNull();
    const [row, col] = found!;
    expect(fx.dem.elevationAt(...postLngLat(row, col + 0.25))).toBe(rawPost(fx.raw, row, col));
    expect(fx.dem.elevationAt(...postLngLat(row, col + 1))).toBeNull();
  });

  it('is null outside the tiles', () => {
    expect(fx.dem.elevationAt(-123.5, 48.2)).toBeNull();
    expect(fx.dem.elevationAt(-125.01, 48.2)).toBeNull();
    expect(fx.dem.elevationAt(-124.5, 47.99)).toBeNull();
    expect(fx.dem.elevationAt(Number.NaN, 48.2)).toBeNull();
    expect(new Dem([]).elevationAt(-124.5, 48.2)).toBeNull();
  });

  it('knows its bounds and refuses a tile twice', () => {
    expect(fx.dem.bounds()).toEqual({ west: -125, south: 48, east: -124, north: 49 });
    expect(fx.dem.intersects({ west: -124, south: 48.5, east: -123, north: 48.6 })).toBe(true);
    expect(fx.dem.intersects({ west: -123.9, south: 48.5, east: -123, north: 48.6 })).toBe(false);
    expect(() => new Dem([fx.tile, fx.tile])).toThrow(/two DEM tiles/);
  });
});
