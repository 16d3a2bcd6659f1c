import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import type { KindOpener } from '../../releases/reader.ts';
import { TERRAIN_FILE, TERRAIN_KIND, TerrainFile, type TerrainArchiveEntry } from '../../schemas/terrain-release.ts';
import { TileArchive } from '../tiles/pmtiles/archive-reader.ts';
import { HotTiles, NO_HOT_TILES } from '../tiles/hot-tiles.ts';
import { Dem } from './dem.ts';
import { readDemFile } from './dem-file.ts';

/** One of the release's tile archives and the zooms it was built for. */
export interface TerrainArchive {
  archive: TileArchive;
  minzoom: number;
  maxzoom: number;
}

/**
 * An open terrain release: the terrarium and contour archives (either may be absent: an archive
 * with no tile is not written) and the DEM they were made from, in memory for /elevation
 * (a 1″ tile is 26 MB).
 */
export class TerrainRelease {
  private constructor(
    readonly releaseId: string,
    readonly dem: Dem,
    readonly terrarium: TerrainArchive | null,
    readonly contours: TerrainArchive | null,
  ) {}

  static async open(dir: string, releaseId: string, hot: HotTiles = NO_HOT_TILES): Promise<TerrainRelease> {
    const raw = JSON.parse(await readFile(path.join(dir, TERRAIN_FILE), 'utf8')) as unknown;
    const problem = Value.Errors(TerrainFile, raw).First();
    if (problem) throw new Error(`${TERRAIN_FILE}: ${problem.path || '/'} ${problem.message}`);
    const file = raw as TerrainFile;
    const tiles = (await Promise.all(file.dem.map((entry) => readDemFile(path.join(dir, entry.file))))).flat();
    const opened: TileArchive[] = [];
    const openArchive = async (entry: TerrainArchiveEntry | null): Promise<TerrainArchive | null> => {
      if (!entry) return null;
      const archive = await TileArchive.open(path.join(dir, entry.file), hot);
      opened.push(archive);
      return { archive, minzoom: entry.minzoom, maxzoom: entry.maxzoom };
    };
    try {
      return new TerrainRelease(releaseId, new Dem(tiles), await openArchive(file.terrarium), await openArchive(file.contours));
    } catch (err) {
      await Promise.all(opened.map((a) => a.close()));
      throw err;
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.terrarium?.archive.close(), this.contours?.archive.close()]);
  }
}

/** The release-kind opener the API's release store uses for kind 'terrain'; its archives share `hot`. */
export const terrainOpener = (hot: HotTiles): KindOpener<TerrainRelease> => ({
  kind: TERRAIN_KIND,
  open: (dir, manifest) => TerrainRelease.open(dir, manifest.id, hot),
  close: (release) => release.close(),
});
