import { TerrainRelease } from '../../engines/terrain/release.ts';
import { createPool } from '../../lib/postgres.ts';
import { localReleaseDir, type LocalCopySettings } from '../../releases/object-store/local-copy.ts';
import { getEnabledRelease } from '../../releases/registry.ts';
import type { ManifestInput } from '../../schemas/manifest.ts';
import { TERRAIN_KIND } from '../../schemas/terrain-release.ts';
import type { DemSampler } from './edge-grades.ts';

/** The heights a roads build grades its edges with, and the terrain release they come from. */
export interface RoadsDem {
  releaseId: string;
  /** The terrain release's content hash: a roads release built on other heights is another release. */
  contentHash: string;
  elevationAt: DemSampler;
  /** The terrain release's terms (those of its first input), repeated in the roads manifest. */
  licence?: string;
  attribution?: string;
}

/** The manifest input naming the terrain release a roads release was graded with. */
export function terrainInput(dem: RoadsDem): ManifestInput {
  return {
    name: 'terrain',
    source: `terrain release ${dem.releaseId}`,
    sha256: dem.contentHash,
    ...(dem.licence ? { licence: dem.licence } : {}),
    ...(dem.attribution ? { attribution: dem.attribution } : {}),
  };
}

/**
 * The DEM of the enabled terrain release, or null when none is enabled. The whole DEM is held in
 * memory (as the API holds it for /elevation); its tile archives are not needed and are closed.
 * With RELEASE_STORE, the release is read from this host's copy (downloaded when missing).
 */
export async function enabledTerrainDem(settings: LocalCopySettings & { databaseUrl: string }): Promise<RoadsDem | null> {
  const pool = createPool(settings.databaseUrl, 1);
  let release;
  try {
    release = await getEnabledRelease(pool, TERRAIN_KIND);
  } finally {
    await pool.end();
  }
  if (!release) return null;
  const terrain = await TerrainRelease.open(await localReleaseDir(release, settings), release.id);
  await terrain.close();
  const { dem } = terrain;
  const terms = release.manifest.inputs[0];
  return {
    releaseId: release.id,
    contentHash: release.contentHash,
    elevationAt: (lng, lat) => dem.elevationAt(lng, lat),
    ...(terms?.licence ? { licence: terms.licence } : {}),
    ...(terms?.attribution ? { attribution: terms.attribution } : {}),
  };
}
