import { gzipSync } from 'node:zlib';
import type { ContourFeature } from '../../engines/terrain/contour-tile.ts';
import type { TileAddress } from '../../engines/terrain/web-mercator.ts';
import { clipFeature } from '../../engines/tiles/clip.ts';
import { TILE_BUFFER, TILE_EXTENT, type LayerSpec } from '../../engines/tiles/layer-spec.ts';
import { TileMaker } from '../../engines/tiles/tile-maker.ts';
import { projectFeature, type ProjectionContext } from '../../engines/tiles/tile-feature.ts';
import { CONTOUR_ZOOMS, CONTOURS_LAYER } from '../../schemas/terrain-release.ts';

/**
 * One contour tile as gzip MVT. Every tile's lines are traced for that tile alone (with the
 * engine's sampling buffer), so they go straight to the tiler's tile maker: projected, clipped to
 * the tile plus the tiler's buffer, simplified below z13 (every vertex kept at z13, which clients
 * overzoom) and held to the tile budget.
 */
export class ContourMvt {
  private readonly spec: LayerSpec = { id: CONTOURS_LAYER, minZoom: CONTOUR_ZOOMS.min, maxZoom: CONTOUR_ZOOMS.max, include: ['ele', 'index'] };
  private readonly maker = new TileMaker([this.spec]);
  private readonly ctx: ProjectionContext = { layer: 0, spec: this.spec, rank: true, fields: {} };
  /** Lines the tile budget left out, over every tile encoded (never expected at 256 grid cells a tile). */
  dropped = 0;

  /** Null when no line shows in the tile. */
  encode(tile: TileAddress, features: readonly ContourFeature[]): { data: Uint8Array; features: number } | null {
    const { z, x, y } = tile;
    const n = 2 ** z;
    const b = TILE_BUFFER / TILE_EXTENT;
    this.maker.begin(z, x, y);
    features.forEach((feature, seq) => {
      for (const projected of projectFeature(feature, seq, this.ctx)) {
        const clipped = clipFeature(projected, (x - b) / n, (y - b) / n, (x + 1 + b) / n, (y + 1 + b) / n);
        if (clipped) this.maker.add(clipped);
      }
    });
    const made = this.maker.finish();
    if (!made || made.data.length === 0) return null;
    this.dropped += made.dropped;
    return { data: made.compressed ? made.data : gzipSync(made.data), features: made.features };
  }

  get fields(): Record<string, string> {
    return { ...this.ctx.fields };
  }
}
