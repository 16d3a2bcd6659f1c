import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { contourTile } from '../../engines/terrain/contour-tile.ts';
import { Dem } from '../../engines/terrain/dem.ts';
import { hgtBytes } from '../../engines/terrain/dem-file.ts';
import type { DemTile } from '../../engines/terrain/hgt.ts';
import { renderTerrariumTile } from '../../engines/terrain/terrarium-tile.ts';
import type { TileAddress } from '../../engines/terrain/web-mercator.ts';
import { Compression, TileType } from '../../engines/tiles/pmtiles/header.ts';
import type { PublishSpec } from '../../releases/publish.ts';
import {
  CONTOUR_ZOOMS, CONTOURS_ARCHIVE, CONTOURS_LAYER, DEM_DIR, TERRAIN_FILE, TERRAIN_KIND, TERRAIN_SCHEMA_VERSION,
  TERRARIUM_ARCHIVE, TERRARIUM_ZOOMS, type DemTileEntry, type TerrainFile,
} from '../../schemas/terrain-release.ts';
import { writeArchive } from './archive-writer.ts';
import { ContourMvt } from './contour-mvt.ts';
import { loadDemInputs, SRTM_ATTRIBUTION, voidFraction } from './inputs.ts';
import { demSquares, tilesCovering } from './tile-cover.ts';

export const TERRAIN_BUILDER_VERSION = 'terrain-1';

export interface TerrainReleaseOptions {
  onProgress?: (fraction: number, message: string) => void;
}

const zoomRange = (min: number, max: number) => Array.from({ length: max - min + 1 }, (_, i) => min + i);

/**
 * DEM files (.hgt, .hgt.gz, zips of .hgt) → a PublishSpec of a terrain release: terrarium PNG
 * tiles z0–12, contour tiles z9–13 and the DEM tiles themselves (gzip .hgt) for /elevation.
 * Memory holds the DEM and one tile at a time; tile bytes are spooled to disk by the writer.
 */
export async function prepareTerrainRelease(files: readonly string[], options: TerrainReleaseOptions = {}): Promise<PublishSpec> {
  const { inputs, tiles: loadedTiles } = await loadDemInputs(files);
  let held: DemTile[] | null = loadedTiles;
  const onProgress = options.onProgress ?? (() => {});
  return {
    kind: TERRAIN_KIND,
    builderVersion: TERRAIN_BUILDER_VERSION,
    schemaVersion: TERRAIN_SCHEMA_VERSION,
    inputs,
    async build(stagingDir) {
      if (!held) throw new Error('the terrain inputs were already disposed of');
      const started = Date.now();
      const tiles = [...held].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      const dem = new Dem(tiles);
      const entries = await writeDemTiles(tiles, stagingDir);

      const squares = demSquares(tiles);
      const terrariumTiles = zoomRange(TERRARIUM_ZOOMS.min, TERRARIUM_ZOOMS.max).map((z) => tilesCovering(squares, z));
      const contourTiles = zoomRange(CONTOUR_ZOOMS.min, CONTOUR_ZOOMS.max).map((z) => tilesCovering(squares, z));
      const total = [...terrariumTiles, ...contourTiles].reduce((n, list) => n + list.length, 0);
      let done = 0;
      const tick = (what: string) => () => {
        done++;
        if (done % 50 === 0 || done === total) onProgress(done / total, `${what}: ${done} of ${total} tiles looked at`);
      };

      const terrarium = await writeArchive(
        path.join(stagingDir, TERRARIUM_ARCHIVE),
        {
          tileType: TileType.png,
          tileCompression: Compression.none,
          metadata: { name: 'canmap terrain', type: 'baselayer', format: 'png', encoding: 'terrarium', attribution: SRTM_ATTRIBUTION },
        },
        terrariumTiles,
        (tile: TileAddress) => renderTerrariumTile(dem, tile),
        tick('terrain'),
      );

      const mvt = new ContourMvt();
      let lines = 0;
      const contours = await writeArchive(
        path.join(stagingDir, CONTOURS_ARCHIVE),
        {
          metadata: {
            name: 'canmap contours', format: 'pbf', attribution: SRTM_ATTRIBUTION,
            vector_layers: [{ id: CONTOURS_LAYER, fields: { ele: 'Number', index: 'Boolean' }, minzoom: CONTOUR_ZOOMS.min, maxzoom: CONTOUR_ZOOMS.max }],
          },
        },
        contourTiles,
        (tile: TileAddress) => {
          const encoded = mvt.encode(tile, contourTile(dem, tile));
          lines += encoded?.features ?? 0;
          return encoded?.data ?? null;
        },
        tick('contours'),
      );

      const file: TerrainFile = {
        dem: entries,
        terrarium: terrarium && { file: TERRARIUM_ARCHIVE, minzoom: terrarium.minzoom, maxzoom: terrarium.maxzoom, tiles: terrarium.tiles },
        contours: contours && { file: CONTOURS_ARCHIVE, minzoom: contours.minzoom, maxzoom: contours.maxzoom, tiles: contours.tiles },
      };
      await writeFile(path.join(stagingDir, TERRAIN_FILE), `${JSON.stringify(file, null, 2)}\n`);
      onProgress(1, 'built');
      return {
        stats: {
          dem_tiles: entries.map((e) => e.name),
          terrarium,
          contours: contours && { ...contours, lines, lines_dropped: mvt.dropped },
          build_seconds: (Date.now() - started) / 1000,
        },
        coverage: entries.map((e) => {
          const tile = tiles.find((t) => t.name === e.name)!;
          return { dem_tile: e.name, bounds: [tile.west, tile.south, tile.west + 1, tile.south + 1], posts: e.posts, void_fraction: e.void_fraction };
        }),
      };
    },
    async dispose() {
      held = null;
    },
  };
}

/** The DEM tiles as gzip .hgt files under dem/, what /elevation reads back. */
async function writeDemTiles(tiles: readonly DemTile[], stagingDir: string): Promise<DemTileEntry[]> {
  await mkdir(path.join(stagingDir, DEM_DIR));
  const entries: DemTileEntry[] = [];
  for (const tile of tiles) {
    const file = `${DEM_DIR}/${tile.name}.hgt.gz`;
    await writeFile(path.join(stagingDir, file), gzipSync(hgtBytes(tile)));
    entries.push({ name: tile.name, file, posts: tile.size, void_fraction: voidFraction(tile) });
  }
  return entries;
}
