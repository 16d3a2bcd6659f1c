import { Dem } from '../../engines/terrain/dem.ts';
import { parseHgt, type DemTile } from '../../engines/terrain/hgt.ts';
import { readHgtZip } from '../../engines/terrain/hgt-zip.ts';
import { sharedData } from '../support/paths.ts';
import { tileContaining } from '../../engines/tiles/tile-feature.ts';
import type { TileAddress } from '../../engines/terrain/web-mercator.ts';

/** The shared 1″ SRTM tile N48W125 (lat 48–49, lng −125..−124): its north half is void, its south half the Olympic Peninsula's coast. */
export const DEM_ZIP = sharedData('tiles', 'dem', 'graphhopper-N48W125.hgt.zip');

export interface DemFixture {
  /** The .hgt file's bytes as the zip holds them. */
  raw: Buffer;
  tile: DemTile;
  dem: Dem;
}

let loaded: Promise<DemFixture> | undefined;

export function loadDemFixture(): Promise<DemFixture> {
  loaded ??= readHgtZip(DEM_ZIP).then(([entry]) => {
    if (!entry) throw new Error(`${DEM_ZIP} holds no .hgt`);
    const tile = parseHgt(entry.fileName, entry.bytes);
    return { raw: entry.bytes, tile, dem: new Dem([tile]) };
  });
  return loaded;
}

/** The raw sample at a post of the 1″ tile, read straight from the file's bytes (big-endian int16). */
export function rawPost(raw: Buffer, row: number, col: number): number {
  return raw.readInt16BE((row * 3601 + col) * 2);
}

/** The lng/lat of a post of N48W125 (1″: 3600 intervals a degree, row 0 on lat 49). */
export function postLngLat(row: number, col: number): [number, number] {
  return [-125 + col / 3600, 49 - row / 3600];
}

/** The tile address holding a point at zoom z. */
export const tileAt = (lng: number, lat: number, z: number): TileAddress => {
  const [x, y] = tileContaining(lng, lat, z);
  return { z, x, y };
};
