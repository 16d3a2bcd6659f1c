import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { QueryError } from '../../lib/query-error.ts';
import { BYOD_GEOJSON_LAYER, BYOD_GEOJSON_MAX_ZOOM } from '../../schemas/byod-api.ts';
import { PMTilesWriter } from '../tiles/pmtiles/writer.ts';
import { tileLayersInto, TilesTooLargeError } from '../tiles/tiler.ts';
import { readGeoJson, type OverlayBounds } from './geojson.ts';
import { chooseMaxZoom } from './max-zoom.ts';
import { archiveByteLimit, TILE_COARSEN, tooLargeReason } from './tiling-limits.ts';

/**
 * A stored GeoJSON upload → a PMTiles archive of one vector layer (`byod`) with the project's
 * tiler, zoom 0 to the deepest zoom its tile and vertex budgets allow (max-zoom.ts), tiles over
 * the byte cap simplified harder before features are dropped, and the archive held to
 * tiling-limits.ts. A file that cannot be tiled for a reason of its own throws a QueryError,
 * which the job records as the overlay's error; nothing of the archive is left then.
 */

export interface TiledUpload {
  minZoom: number;
  maxZoom: number;
  bounds: OverlayBounds;
  layers: string[];
  tiles: number;
  bytes: number;
}

export interface TileUploadOptions {
  /** Where the tiler's scratch folder goes (default: beside the archive, BYOD_DIR/.incoming/). */
  workDir?: string;
}

export async function tileGeoJsonUpload(sourcePath: string, archivePath: string, options: TileUploadOptions = {}): Promise<TiledUpload> {
  const source = await readFile(sourcePath);
  const { features, bounds } = readGeoJson(source);
  const drawable = features.filter((f) => f.geometry !== null);
  const maxZoom = chooseMaxZoom(drawable.map((f) => f.geometry), BYOD_GEOJSON_MAX_ZOOM);
  const limit = archiveByteLimit(source.length);
  const writer = await PMTilesWriter.create(archivePath);
  try {
    const report = await tileLayersInto([{ spec: { id: BYOD_GEOJSON_LAYER, minZoom: 0, maxZoom }, features: drawable }], writer, options.workDir ?? path.dirname(archivePath), {
      budget: { coarsen: TILE_COARSEN },
      maxTileBytes: limit,
    });
    if (report.zooms.length === 0) throw new QueryError('the features produced no tiles (are the geometries degenerate?)');
    const archive = await writer.finish({
      metadata: { name: BYOD_GEOJSON_LAYER, vector_layers: report.vectorLayers },
      bounds: { minLon: bounds[0], minLat: bounds[1], maxLon: bounds[2], maxLat: bounds[3] },
    });
    // The directories come on top of the tiles: a last check of the whole file.
    if (archive.bytes > limit) throw new TilesTooLargeError(limit);
    return {
      minZoom: archive.minZoom,
      maxZoom: archive.maxZoom,
      bounds,
      layers: report.vectorLayers.map((l) => l.id),
      tiles: archive.addressedTiles,
      bytes: archive.bytes,
    };
  } catch (err) {
    await writer.abort();
    await rm(archivePath, { force: true });
    if (err instanceof TilesTooLargeError) throw new QueryError(tooLargeReason(limit));
    throw err;
  }
}
