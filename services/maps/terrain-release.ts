import type { TerrainRelease } from '../../engines/terrain/release.ts';
import { errors } from '../../lib/errors.ts';
import { NO_RELEASE_ENABLED, type ReleaseStore } from '../../releases/reader.ts';
import { TERRAIN_KIND } from '../../schemas/terrain-release.ts';

/**
 * Runs `fn` on the enabled terrain release. None enabled is "not configured": the JSON 404 of
 * volume 1. One enabled but not servable (failed verification, still opening) is the usual 503.
 */
export function useTerrainRelease<T>(releases: ReleaseStore, archive: 'terrain' | 'contour', fn: (release: TerrainRelease) => Promise<T>): Promise<T> {
  const status = releases.status()[TERRAIN_KIND];
  if (!status || (status.state !== 'ready' && status.reason === NO_RELEASE_ENABLED)) throw errors.archiveNotConfigured(archive);
  return releases.use(TERRAIN_KIND, fn);
}
