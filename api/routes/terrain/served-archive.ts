import type { FastifyInstance } from 'fastify';
import type { TerrainArchive, TerrainRelease } from '../../../engines/terrain/release.ts';
import { ReleaseUnavailableError } from '../../../releases/unavailable.ts';
import { TERRAIN_KIND } from '../../../schemas/terrain-release.ts';
import { useTerrainRelease } from '../../../services/maps/terrain-release.ts';

/** What the terrain and contour tile routes (and /elevation) share: the enabled terrain release or the spec's JSON 404. */

/** services/maps/terrain-release.ts over the app's release store (the tile routes'). */
export function useTerrain<T>(app: FastifyInstance, archive: 'terrain' | 'contour', fn: (release: TerrainRelease) => Promise<T>): Promise<T> {
  return useTerrainRelease(app.releases, archive, fn);
}

/** The archive's bytes of a tile, or null (204) outside its zooms or where it has none. */
export function archiveTile(archive: TerrainArchive, z: number, x: number, y: number): Promise<Buffer | null> {
  if (z < archive.minzoom || z > archive.maxzoom) return Promise.resolve(null);
  return archive.archive.tile(z, x, y);
}

/** Which terrain archives a style may name (GET /styles adds svc_dem and svc_contours only for these). */
export async function enabledTerrainArchives(app: FastifyInstance): Promise<{ terrain: boolean; contours: boolean }> {
  if (app.releases.status()[TERRAIN_KIND]?.state !== 'ready') return { terrain: false, contours: false };
  return app.releases
    .use(TERRAIN_KIND, async (release: TerrainRelease) => ({ terrain: release.terrarium !== null, contours: release.contours !== null }))
    .catch((err: unknown) => {
      // withdrawn between the two calls: the style goes without terrain, as when none is configured
      if (err instanceof ReleaseUnavailableError) return { terrain: false, contours: false };
      throw err;
    });
}
