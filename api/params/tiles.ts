import { accept, reject, type Checked } from '../../lib/checked.ts';

/** Volume 3 "Maps": the plain-text 400 of every tile route. */
export const INVALID_TILE_COORDINATES = 'invalid tile coordinates';

const DIGITS = /^\d{1,10}$/;
/** Deeper than any archive: such a tile never exists (204), whatever x and y are. */
const DEEPEST_CHECKED_ZOOM = 30;

export interface TileCoordinates {
  z: number;
  x: number;
  y: number;
}

/** z/x/y of a tile path (y may end in .pbf or .mvt): non-negative integers with x, y < 2^z. */
export function sanitizeTileCoordinates(z: string, x: string, y: string): Checked<TileCoordinates> {
  const yDigits = y.replace(/\.(pbf|mvt)$/, '');
  if (!DIGITS.test(z) || !DIGITS.test(x) || !DIGITS.test(yDigits)) return reject(INVALID_TILE_COORDINATES);
  const tile = { z: Number(z), x: Number(x), y: Number(yDigits) };
  if (tile.z <= DEEPEST_CHECKED_ZOOM && (tile.x >= 2 ** tile.z || tile.y >= 2 ** tile.z)) return reject(INVALID_TILE_COORDINATES);
  return accept(tile);
}
