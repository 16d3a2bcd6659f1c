import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Dem } from '../../engines/terrain/dem.ts';
import { hgtBytes, readDemFile } from '../../engines/terrain/dem-file.ts';
import { elevationProfile } from '../../engines/terrain/elevation-profile.ts';
import { HGT_VOID } from '../../engines/terrain/hgt.ts';
import { zxyToTileId } from '../../engines/tiles/pmtiles/tile-id.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';
import { InvalidInputError } from '../../ingest/errors.ts';
import { loadDemInputs } from '../../ingest/terrain/inputs.ts';
import { demSquares, tilesCovering } from '../../ingest/terrain/tile-cover.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { repoPath } from '../support/paths.ts';
import { DEM_ZIP, loadDemFixture, type DemFixture } from './dem-fixture.ts';

let fx: DemFixture;
let dir: string;

beforeAll(async () => {
  fx = await loadDemFixture();
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-dem-file-'));
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('DEM files', () => {
  it('reads the same tile from a zip, a bare .hgt and a .hgt.gz', async () => {
    await writeFile(path.join(dir, 'N48W125.hgt'), fx.raw);
    await writeFile(path.join(dir, 'N48W125.hgt.gz'), gzipSync(fx.raw));
    const [fromZip] = await readDemFile(DEM_ZIP);
    const [bare] = await readDemFile(path.join(dir, 'N48W125.hgt'));
    const [gz] = await readDemFile(path.join(dir, 'N48W125.hgt.gz'));
    for (const tile of [fromZip!, bare!, gz!]) {
      expect({ name: tile.name, south: tile.south, west: tile.west, size: tile.size }).toEqual({ name: 'N48W125', south: 48, west: -125, size: 3601 });
      expect(Buffer.from(hgtBytes(tile)).equals(fx.raw)).toBe(true);
    }
    await expect(readDemFile(path.join(dir, 'N48W125.tif'))).rejects.toThrow('a DEM file is .hgt, .hgt.gz or a .zip of .hgt files');
  });

  it('the demo sample is every third post of the shared tile within lat 48–48.5, void elsewhere', async () => {
    const [sample] = await readDemFile(repoPath('samples/terrain/N48W125.hgt.gz'));
    expect(sample).toMatchObject({ name: 'N48W125', size: 1201 });
    let data = 0;
    for (let row = 0; row < 1201; row += 7) {
      for (let col = 0; col < 1201; col += 5) {
        const value = sample!.samples[row * 1201 + col]!;
        const lat = 49 - (row * 3) / 3600;
        if (lat > 48.5) {
          expect(value).toBe(HGT_VOID);
        } else {
          expect(value).toBe(fx.raw.readInt16BE((row * 3 * 3601 + col * 3) * 2));
          if (value !== HGT_VOID && value > 0) data++;
        }
      }
    }
    expect(data).toBeGreaterThan(3000);
  });

  it('refuses a tile given twice and files it cannot read, as input errors', async () => {
    await writeFile(path.join(dir, 'N48W125.hgt'), fx.raw);
    await expect(loadDemInputs([DEM_ZIP, path.join(dir, 'N48W125.hgt')])).rejects.toThrow(
      new InvalidInputError(`DEM tile N48W125 is given twice (${DEM_ZIP} and ${path.join(dir, 'N48W125.hgt')})`),
    );
    await writeFile(path.join(dir, 'broken.zip'), 'not a zip');
    await expect(loadDemInputs([path.join(dir, 'broken.zip')])).rejects.toBeInstanceOf(InvalidInputError);
    await expect(loadDemInputs(['relative/N48W125.hgt'])).rejects.toThrow('is not an absolute path');
    await expect(loadDemInputs([])).rejects.toThrow('give at least one DEM file');
  });
});

describe('tiles covering the DEM squares', () => {
  it('lists every tile meeting the square, in tile-id order', () => {
    const squares = demSquares([{ south: 48, west: -125 }]);
    for (const z of [0, 5, 12]) {
      const tiles = tilesCovering(squares, z);
      const ids = tiles.map(({ x, y }) => zxyToTileId(z, x, y));
      expect(ids).toEqual([...ids].sort((a, b) => a - b));
      const [x0, y0] = tileContaining(-125, 49, z);
      const [x1, y1] = tileContaining(-124, 48, z);
      expect(tiles.length).toBe((x1 - x0 + 1) * (y1 - y0 + 1));
      for (const [lng, lat] of [[-124.99, 48.99], [-124.01, 48.01], [-124.5, 48.5]] as const) {
        const [x, y] = tileContaining(lng, lat, z);
        expect(tiles).toContainEqual({ z, x, y });
      }
    }
    expect(tilesCovering(squares, 12, 1).length).toBeGreaterThan(tilesCovering(squares, 12).length);
  });
});

describe('elevation profiles', () => {
  const flat = (height: number) => {
    const samples = new Int16Array(1201 * 1201).fill(height);
    // a void patch in the south-east corner
    for (let row = 1100; row < 1201; row++) samples.fill(HGT_VOID, row * 1201 + 1100, row * 1201 + 1201);
    return new Dem([{ name: 'N10E010', south: 10, west: 10, size: 1201, samples }]);
  };

  it('puts the path\'s own points at their cumulative distances', () => {
    const path: [number, number][] = [[10.1, 10.1], [10.2, 10.1], [10.2, 10.3]];
    const profile = elevationProfile(flat(42), path);
    const first = haversineMetres(10.1, 10.1, 10.2, 10.1);
    expect(profile.points.map((p) => p.distance)).toEqual([0, first, first + haversineMetres(10.2, 10.1, 10.2, 10.3)]);
    expect(profile).toMatchObject({ min: 42, max: 42, ascent: 0, descent: 0, length: profile.points[2]!.distance });
  });

  it('spaces samples evenly, ends included, and leaves voids and the outside null', () => {
    const profile = elevationProfile(flat(7), [[10.5, 10.5], [10.99, 10.01], [11.5, 10.01]], 11);
    expect(profile.points).toHaveLength(11);
    expect(profile.points[0]!.at).toEqual([10.5, 10.5]);
    expect(profile.points[10]!.at).toEqual([11.5, 10.01]);
    profile.points.forEach((p, i) => expect(p.distance).toBeCloseTo((profile.length * i) / 10, 6));
    expect(profile.points.at(-1)!.elevation).toBeNull(); // east of the tile
    expect(profile.points.some((p) => p.elevation === 7)).toBe(true);
    expect(() => elevationProfile(flat(7), [[10.5, 10.5]], 1)).toThrow(RangeError);
  });
});
