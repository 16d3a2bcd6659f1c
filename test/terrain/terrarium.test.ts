import { decode } from 'fast-png';
import { beforeAll, describe, expect, it } from 'vitest';
import { decodeTerrarium, encodeTerrarium, TERRARIUM_RESOLUTION } from '../../engines/terrain/terrarium.ts';
import { NO_DATA_PIXEL, renderTerrariumTile, type TerrariumTileSize } from '../../engines/terrain/terrarium-tile.ts';
import { tileLat, tileLng, type TileAddress } from '../../engines/terrain/web-mercator.ts';
import { loadDemFixture, tileAt, type DemFixture } from './dem-fixture.ts';

let fx: DemFixture;
beforeAll(async () => {
  fx = await loadDemFixture();
});

describe('terrarium encoding', () => {
  it('round-trips heights to 1/256 m', () => {
    for (const metres of [0, 1095, -13, 8848.86, -10.3, 1234.5678, 0.001, -32768, 32767.99]) {
      const [r, g, b] = encodeTerrarium(metres);
      for (const channel of [r, g, b]) expect(Number.isInteger(channel) && channel >= 0 && channel <= 255).toBe(true);
      expect(Math.abs(decodeTerrarium(r, g, b) - metres)).toBeLessThanOrEqual(TERRARIUM_RESOLUTION / 2);
    }
  });

  it('is the published formula', () => {
    expect(encodeTerrarium(0)).toEqual([128, 0, 0]);
    expect(encodeTerrarium(1.5)).toEqual([128, 1, 128]);
    expect(encodeTerrarium(-1)).toEqual([127, 255, 0]);
    expect(decodeTerrarium(131, 71, 64)).toBe(131 * 256 + 71 + 0.25 - 32768);
  });
});

describe('terrarium tiles', () => {
  const checkAgainstDem = (png: Uint8Array, tile: TileAddress, size: TerrariumTileSize) => {
    const image = decode(png);
    expect(image).toMatchObject({ width: size, height: size, channels: 4, depth: 8 });
    const counts = { data: 0, none: 0 };
    const wrong: { px: number; py: number; rgba: number[]; expected: number | null }[] = [];
    for (let py = 0; py < size; py++) {
      const lat = tileLat(tile, (py + 0.5) / size);
      for (let px = 0; px < size; px++) {
        const at = (py * size + px) * 4;
        const [r, g, b, a] = [image.data[at]!, image.data[at + 1]!, image.data[at + 2]!, image.data[at + 3]!];
        const expected = fx.dem.elevationAt(tileLng(tile, (px + 0.5) / size), lat);
        if (expected === null) {
          if (r !== NO_DATA_PIXEL[0] || g !== NO_DATA_PIXEL[1] || b !== NO_DATA_PIXEL[2] || a !== NO_DATA_PIXEL[3]) wrong.push({ px, py, rgba: [r, g, b, a], expected });
          counts.none++;
        } else {
          if (a !== 255 || Math.abs(decodeTerrarium(r, g, b) - expected) > TERRARIUM_RESOLUTION / 2) wrong.push({ px, py, rgba: [r, g, b, a], expected });
          counts.data++;
        }
      }
    }
    expect(wrong.slice(0, 5)).toEqual([]);
    return counts;
  };

  it('holds the DEM height at every pixel centre of a covered z12 tile', () => {
    const tile = tileAt(-124.1, 48.1, 12);
    const png = renderTerrariumTile(fx.dem, tile);
    expect(png).not.toBeNull();
    const counts = checkAgainstDem(png!, tile, 256);
    expect(counts.data).toBeGreaterThan(60_000);
  });

  it('marks the pixels without data transparent at 0 m in a tile crossing the coverage edge', () => {
    // z9 over the tile's west edge and its void north half
    const tile = tileAt(-125, 48.5, 9);
    const png = renderTerrariumTile(fx.dem, tile, 512);
    expect(png).not.toBeNull();
    const counts = checkAgainstDem(png!, tile, 512);
    expect(counts.data).toBeGreaterThan(1000);
    expect(counts.none).toBeGreaterThan(1000);
  });

  it('is null where the DEM has nothing', () => {
    expect(renderTerrariumTile(fx.dem, tileAt(-79.38, 43.65, 12))).toBeNull();
    // inside the tile's square, but all void
    expect(renderTerrariumTile(fx.dem, tileAt(-124.5, 48.8, 12))).toBeNull();
    expect(() => renderTerrariumTile(fx.dem, { z: 3, x: 8, y: 0 })).toThrow(RangeError);
  });
});
