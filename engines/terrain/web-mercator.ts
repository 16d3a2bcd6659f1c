import { projectX, projectY, unprojectX, unprojectY } from '../tiles/tile-feature.ts';
import type { DemBounds } from './dem.ts';

/**
 * Positions inside a Web Mercator tile z/x/y as fractions of the tile's side (0 at the west or
 * north edge, 1 at the east or south one; beyond for a buffer) and their lng/lat.
 */

export interface TileAddress {
  z: number;
  x: number;
  y: number;
}

export function checkTileAddress({ z, x, y }: TileAddress): void {
  const n = 2 ** z;
  if (!Number.isInteger(z) || z < 0 || z > 24 || !Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= n || y >= n) {
    throw new RangeError(`${z}/${x}/${y} is not a tile`);
  }
}

/** Longitude of the fraction u across tile z/x/y. */
export function tileLng(tile: TileAddress, u: number): number {
  return unprojectX((tile.x + u) / 2 ** tile.z);
}

/** Latitude of the fraction v down tile z/x/y. */
export function tileLat(tile: TileAddress, v: number): number {
  return unprojectY((tile.y + v) / 2 ** tile.z);
}

/** Where a point falls in tile z/x/y, as fractions of its side. */
export function tileFraction(tile: TileAddress, lng: number, lat: number): { u: number; v: number } {
  const n = 2 ** tile.z;
  return { u: projectX(lng) * n - tile.x, v: projectY(lat) * n - tile.y };
}

/** The lng/lat box of the tile grown by `buffer` (a fraction of its side) on every edge. */
export function tileBounds(tile: TileAddress, buffer = 0): DemBounds {
  return { west: tileLng(tile, -buffer), east: tileLng(tile, 1 + buffer), north: tileLat(tile, -buffer), south: tileLat(tile, 1 + buffer) };
}
