import { HGT_VOID, type DemTile } from './hgt.ts';

/**
 * Row or column positions this close to a post are snapped onto it, so a post's own coordinates
 * read its sample exactly despite the rounding of (edge − lat) × (size − 1).
 */
const POST_SNAP = 1e-7;

export interface DemBounds {
  west: number;
  south: number;
  east: number;
  north: number;
}

/** A set of one-degree tiles answering the height of a point. */
export class Dem {
  private readonly tiles = new Map<string, DemTile>();

  constructor(tiles: Iterable<DemTile>) {
    for (const tile of tiles) {
      const key = cornerKey(tile.south, tile.west);
      if (this.tiles.has(key)) throw new Error(`two DEM tiles for ${tile.name}`);
      this.tiles.set(key, tile);
    }
  }

  get tileCount(): number {
    return this.tiles.size;
  }

  /** The union of the tiles' squares (not every point in it is covered when tiles are missing); null when empty. */
  bounds(): DemBounds | null {
    let box: DemBounds | null = null;
    for (const { south, west } of this.tiles.values()) {
      box = box
        ? { west: Math.min(box.west, west), south: Math.min(box.south, south), east: Math.max(box.east, west + 1), north: Math.max(box.north, south + 1) }
        : { west, south, east: west + 1, north: south + 1 };
    }
    return box;
  }

  /** Whether any tile's square meets the box (edges included). */
  intersects(box: DemBounds): boolean {
    for (const { south, west } of this.tiles.values()) {
      if (west <= box.east && west + 1 >= box.west && south <= box.north && south + 1 >= box.south) return true;
    }
    return false;
  }

  /**
   * Height in metres at a point: bilinear over the four posts around it, exact at a post. Void
   * posts are left out and the others' weights rescaled; null when every post with weight is
   * void or no tile covers the point.
   */
  elevationAt(lng: number, lat: number): number | null {
    const tile = this.tileAt(lng, lat);
    return tile ? bilinear(tile, lng, lat) : null;
  }

  private tileAt(lng: number, lat: number): DemTile | undefined {
    if (!Number.isFinite(lng) || !Number.isFinite(lat)) return undefined;
    const south = Math.floor(lat);
    const west = Math.floor(lng);
    // a point on a north or east edge belongs to the tile below or left of it when that is the one we have
    return this.tiles.get(cornerKey(south, west))
      ?? (lat === south ? this.tiles.get(cornerKey(south - 1, west)) : undefined)
      ?? (lng === west ? this.tiles.get(cornerKey(south, west - 1)) : undefined)
      ?? (lat === south && lng === west ? this.tiles.get(cornerKey(south - 1, west - 1)) : undefined);
  }
}

function cornerKey(south: number, west: number): string {
  return `${south},${west}`;
}

function bilinear(tile: DemTile, lng: number, lat: number): number | null {
  const last = tile.size - 1;
  const row = snap((tile.south + 1 - lat) * last);
  const col = snap((lng - tile.west) * last);
  if (row < 0 || row > last || col < 0 || col > last) return null;
  const r0 = Math.min(Math.floor(row), last - 1);
  const c0 = Math.min(Math.floor(col), last - 1);
  const fr = row - r0;
  const fc = col - c0;
  const { samples, size } = tile;
  const at = r0 * size + c0;
  const w00 = (1 - fr) * (1 - fc);
  const w01 = (1 - fr) * fc;
  const w10 = fr * (1 - fc);
  const w11 = fr * fc;
  const v00 = samples[at]!;
  const v01 = samples[at + 1]!;
  const v10 = samples[at + size]!;
  const v11 = samples[at + size + 1]!;
  // the common case, kept free of branches and closures (a terrarium or contour tile asks ~70,000 points): no void among the four posts
  if (v00 !== HGT_VOID && v01 !== HGT_VOID && v10 !== HGT_VOID && v11 !== HGT_VOID) {
    return v00 * w00 + v01 * w01 + v10 * w10 + v11 * w11;
  }
  let sum = 0;
  let weight = 0;
  if (w00 !== 0 && v00 !== HGT_VOID) { sum += v00 * w00; weight += w00; }
  if (w01 !== 0 && v01 !== HGT_VOID) { sum += v01 * w01; weight += w01; }
  if (w10 !== 0 && v10 !== HGT_VOID) { sum += v10 * w10; weight += w10; }
  if (w11 !== 0 && v11 !== HGT_VOID) { sum += v11 * w11; weight += w11; }
  return weight > 0 ? sum / weight : null;
}

function snap(position: number): number {
  const post = Math.round(position);
  return Math.abs(position - post) < POST_SNAP ? post : position;
}
