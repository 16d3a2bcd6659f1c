/**
 * How deep a GeoJSON upload is tiled. Tiling to zoom 14 everywhere would let one 5 MB file of
 * province-sized polygons ask for millions of tiles, and 35,000 scattered points for 106,000 tiles
 * (measured: 5.8 s, a 15 MB archive); so the deepest zoom is the highest one at which the tiles
 * of every zoom so far, estimated from the features, stay within a budget. Points count the
 * distinct tiles they fall in; lines and polygons the tiles of their bounding box (an upper
 * bound). Zooms beyond the chosen one answer 204, and map clients over-zoom the deepest tiles
 * (at zoom 11 a tile unit is still about 5 m).
 *
 * Tile count alone misses dense lines: one LineString of 870,000 points scribbling over a few
 * degrees asked for zoom 13 (56,000 tiles of its box), and every one of those tiles held hundreds
 * of its pieces (issue 28: 1 min 47 s, a 641 MB archive from 5.2 MB). So the vertices the tiles
 * will hold are budgeted too: per zoom, each line or ring keeps at most its own vertices and at
 * most one per tolerance of its length (Douglas-Peucker at 3 tile units; none dropped at the
 * deepest zoom), and gains two at every tile edge it crosses (length × 2^z).
 */
import { DEFAULT_SIMPLIFICATION, TILE_EXTENT } from '../tiles/layer-spec.ts';

/** Tiles of all zooms together. */
export const TILE_BUDGET = 60_000;
/** Vertices of all zooms' tiles together (measured: about 1 s of tiling per million; see README). */
export const VERTEX_BUDGET = 8_000_000;


type Geometry = GeoJSON.Geometry;

interface Extent {
  points: [number, number][];
  boxes: [number, number, number, number][];
  /** Per line or ring: its vertices and its length in Web Mercator world units (the world is 1 wide). */
  lines: { vertices: number; length: number }[];
}

const mercatorX = (lon: number) => lon / 360 + 0.5;
function mercatorY(lat: number): number {
  const s = Math.sin((Math.max(-85.0511, Math.min(85.0511, lat)) * Math.PI) / 180);
  return 0.5 - Math.log((1 + s) / (1 - s)) / (4 * Math.PI);
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
        const first = (c as unknown[])[0];
        if (typeof first === 'number') return;
        if (typeof (first as unknown[] | undefined)?.[0] !== 'number') {
          for (const inner of c as unknown[]) walk(inner);
          return;
        }
        // A line or ring: its positions.
        let length = 0;
        let [px, py] = [NaN, NaN];
        for (const [lon, lat] of c as number[][]) {
          box[0] = Math.min(box[0], lon!);
          box[1] = Math.min(box[1], lat!);
          box[2] = Math.max(box[2], lon!);
          box[3] = Math.max(box[3], lat!);
          const [x, y] = [mercatorX(lon!), mercatorY(lat!)];
          if (!Number.isNaN(px)) length += Math.hypot(x - px, y - py);
          [px, py] = [x, y];
        }
        into.lines.push({ vertices: (c as unknown[]).length, length });
      };
      walk(geometry.coordinates);
      if (box[0] <= box[2]) into.boxes.push(box);
    }
  }
}

const tileX = (lon: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(mercatorX(lon) * n)));
const tileY = (lat: number, n: number) => Math.min(n - 1, Math.max(0, Math.floor(mercatorY(lat) * n)));

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

/** Estimated vertices in the tiles of zoom z: simplified unless `deepest` (where every vertex stays). */
function vertices(extent: Extent, z: number, deepest: boolean): number {
  const n = 2 ** z;
  let total = extent.points.length;
  for (const { vertices: v, length } of extent.lines) {
    const kept = deepest ? v : Math.min(v, Math.ceil((length * n * TILE_EXTENT) / DEFAULT_SIMPLIFICATION) + 2);
    total += kept + 2 * length * n;
  }
  return total;
}

export interface ZoomBudget {
  tiles?: number;
  vertices?: number;
}

/**
 * The highest zoom from 0 to maxZoom at which the estimated tiles of zooms 0 to it, and the
 * vertices they hold, stay within budget (0 when not even zoom 0 does: the archive's own size
 * and time limits then decide).
 */
export function chooseMaxZoom(geometries: Iterable<Geometry>, maxZoom: number, budget: number | ZoomBudget = {}): number {
  const { tiles: tileBudget = TILE_BUDGET, vertices: vertexBudget = VERTEX_BUDGET } = typeof budget === 'number' ? { tiles: budget } : budget;
  const extent: Extent = { points: [], boxes: [], lines: [] };
  for (const g of geometries) collect(g, extent);
  let tiles = 0;
  let simplified = 0;
  for (let z = 0; z <= maxZoom; z += 1) {
    tiles += estimate(extent, z, tileBudget - tiles);
    if (tiles > tileBudget || simplified + vertices(extent, z, true) > vertexBudget) return Math.max(0, z - 1);
    simplified += vertices(extent, z, false);
  }
  return maxZoom;
}
