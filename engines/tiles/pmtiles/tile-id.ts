/**
 * PMTiles v3 tile ids: all tiles of lower zooms first (4^0 + … + 4^(z-1) of them), then the tile's
 * position on the Hilbert curve over its zoom's 2^z × 2^z grid, so tiles near each other on the
 * map sit near each other in the archive. Exact up to zoom 26 (ids below 2^53).
 */

export const MAX_ZOOM = 26;

/** Tiles of all zooms below z: (4^z - 1) / 3. */
function tilesBelow(z: number): number {
  return (4 ** z - 1) / 3;
}

export function zxyToTileId(z: number, x: number, y: number): number {
  if (!Number.isInteger(z) || z < 0 || z > MAX_ZOOM) throw new RangeError(`zoom ${z} is outside 0-${MAX_ZOOM}`);
  const n = 2 ** z;
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0 || x >= n || y >= n) {
    throw new RangeError(`tile ${z}/${x}/${y} is outside its zoom's grid`);
  }
  let d = 0;
  for (let s = n / 2; s >= 1; s /= 2) {
    const rx = (x & s) > 0 ? 1 : 0;
    const ry = (y & s) > 0 ? 1 : 0;
    d += s * s * ((3 * rx) ^ ry);
    if (ry === 0) {
      if (rx === 1) {
        x = n - 1 - x;
        y = n - 1 - y;
      }
      [x, y] = [y, x];
    }
  }
  return tilesBelow(z) + d;
}

export function tileIdToZxy(id: number): [z: number, x: number, y: number] {
  if (!Number.isSafeInteger(id) || id < 0) throw new RangeError(`tile id ${id} is not a non-negative safe integer`);
  let z = 0;
  while (z < MAX_ZOOM && tilesBelow(z + 1) <= id) z += 1;
  const n = 2 ** z;
  let t = id - tilesBelow(z);
  if (t >= n * n) throw new RangeError(`tile id ${id} is beyond zoom ${MAX_ZOOM}`);
  let x = 0;
  let y = 0;
  for (let s = 1; s < n; s *= 2) {
    const rx = 1 & (t / 2);
    const ry = 1 & (t ^ rx);
    if (ry === 0) {
      if (rx === 1) {
        x = s - 1 - x;
        y = s - 1 - y;
      }
      [x, y] = [y, x];
    }
    x += s * rx;
    y += s * ry;
    t = Math.floor(t / 4);
  }
  return [z, x, y];
}
