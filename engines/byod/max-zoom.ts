/**
 * How deep a GeoJSON upload is tiled. Tiling to zoom 14 everywhere would let one 5 MB file of
 * province-sized polygons ask for millions of tiles, and 35,000 scattered points for 106,000 tiles
 * (measured: 5.8 s, a 15 MB archive); so the deepest zoom is the highest one at which the tiles
 * of every zoom so far, estimated from the features, stay within a budget. Points count the
 * distinct tiles they fall in; lines and polygons the tiles of their bounding box (an upper
 * bound). Zooms beyond the chosen one answer 204, and map clients over-zoom the deepest tiles
 * (at zoom 11 a tile unit is still about 5 m).
 */

/** Tiles of all zooms together. */
export const TILE_BUDGET = 60_000;

type Geometry = GeoJSON.Geometry;

interface Extent {
  points: [number, number][];
  boxes: [number, number, number, number][];
}

function collect(geometry: Geometry, into: Extent): void {
  switch (geometry.type) {
    case 'Point':
      into.points.push([geometry.coordinates[0]!, geometry.coordinates[1]!]);
      return;
    case 'MultiPoint':
      for (const p of geometry.coordinates) into.points.push([p[0]!, p[1]!]);
      return;
    case 'GeometryCollection':
      for (const g of geometry.geometries) collect(g, into);
      return;
    default: {
      const box: [number, number, number, number] = [Infinity, Infinity, -Infinity, -Infinity];
      const walk = (c: unknown): void => {
        if (typeof (c as number[])[0] === 'number') {
          const [lon, lat] = c as number[];
          box[0] = Math.min(box[0], lon!);
          box[1] = Math.min(box[1], lat!);
          box[2] = Math.max(box[2], lon!);
          box[3] = Math.max(box[3], lat!);
        } else for (const inner of c as unknown[]) walk(inner);
      };
      walk(geometry.coordinates);
      into.boxes.push(box);
    }
  }
}

const tileX = (lon: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(((lon + 180) / 360) * n)));
function tileY(lat: number, n: number): number {
  const clamped = Math.max(-85.0511, Math.min(85.0511, lat));
  const s = Math.sin((clamped * Math.PI) / 180);
  return Math.min(n - 1, Math.max(0, Math.floor((0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI)) * n)));
}

/** Estimated tiles at zoom z, counting no further than `limit`. */
function estimate(extent: Extent, z: number, limit: number): number {
  const n = 2 ** z;
  let count = 0;
  for (const [w, s, e, north] of extent.boxes) {
    count += (tileX(e, n) - tileX(w, n) + 1) * (tileY(s, n) - tileY(north, n) + 1);
    if (count > limit) return count;
  }
  const seen = new Set<number>();
  for (const [lon, lat] of extent.points) {
    seen.add(tileY(lat, n) * n + tileX(lon, n));
    if (count + seen.size > limit) return count + seen.size;
  }
  return count + seen.size;
}

/** The highest zoom from 0 to maxZoom at which the estimated tiles of zooms 0 to it stay within budget. */
export function chooseMaxZoom(geometries: Iterable<Geometry>, maxZoom: number, budget = TILE_BUDGET): number {
  const extent: Extent = { points: [], boxes: [] };
  for (const g of geometries) collect(g, extent);
  let total = 0;
  for (let z = 0; z <= maxZoom; z += 1) {
    total += estimate(extent, z, budget - total);
    if (total > budget) return Math.max(0, z - 1);
  }
  return maxZoom;
}
