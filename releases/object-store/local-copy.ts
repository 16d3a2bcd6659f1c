import path from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import { verifyReleaseDir } from '../verify.ts';
import { cachedReleaseDir, downloadRelease } from './download-release.ts';
import { openReleaseBucket } from './open-bucket.ts';

export interface LocalCopySettings {
  releasesDir: string;
  releaseStore: string | null;
  s3Endpoint: string | null;
}

/**
 * A directory on this host holding a registered release, for a build or a command that reads
 * another release (roads reads the enabled terrain DEM). Without RELEASE_STORE: its registered
 * path, as it is. With one: this host's RELEASES_DIR/<kind>/<id>, downloaded and verified first
 * when it is missing or fails verification.
 */
export async function localReleaseDir(
  release: { kind: string; id: string; path: string; manifest: Manifest },
  settings: LocalCopySettings,
): Promise<string> {
  const bucket = await openReleaseBucket(settings);
  if (!bucket) return path.resolve(settings.releasesDir, release.path);
  try {
    const dir = cachedReleaseDir(settings.releasesDir, release);
    const check = await verifyReleaseDir(dir, { expectedId: release.id, expectedManifest: release.manifest });
    if (!check.ok) await downloadRelease(bucket, release, settings.releasesDir, dir);
    return dir;
  } finally {
    bucket.close();
  }
}
