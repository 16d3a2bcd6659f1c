import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import { ReleaseError } from '../errors.ts';
import { fsyncPath, fsyncTree } from '../fsync.ts';
import { makeStagingDir } from '../staging.ts';
import { verifyReleaseDir } from '../verify.ts';
import type { ReleaseBucket } from './s3-client.ts';
import { releaseKeyPrefix, releaseStoreUrl } from './store-url.ts';

/** Where a host keeps its copy of a release when releases come from a store (the registered path is the builder's). */
export function cachedReleaseDir(releasesDir: string, release: { kind: string; id: string }): string {
  return path.join(releasesDir, release.kind, release.id);
}

/**
 * Downloads a registered release from the store into a staging directory beside RELEASES_DIR,
 * verifies every artifact against the registered manifest, then renames it to `dir` (replacing a
 * copy there that failed verification). Throws, leaving `dir` as it was, when an object is
 * missing, a transfer fails or a checksum differs. Returns the bytes downloaded.
 */
export async function downloadRelease(
  bucket: ReleaseBucket,
  release: { kind: string; id: string; manifest: Manifest },
  releasesDir: string,
  dir: string,
  signal?: AbortSignal,
): Promise<number> {
  const prefix = releaseKeyPrefix(bucket.location, release.kind, release.id);
  const staging = await makeStagingDir(releasesDir, `sync-${release.kind}-${release.id}`);
  try {
    // manifest.json is uploaded last: without it the release is not (yet) whole in the store.
    if (!(await bucket.download(`${prefix}manifest.json`, path.join(staging, 'manifest.json'), signal))) {
      throw new ReleaseError(`release ${release.id} is not in the release store (no ${releaseStoreUrl(bucket.location, release.kind, release.id)}manifest.json)`);
    }
    let bytes = 0;
    for (const artifact of release.manifest.artifacts) {
      const file = path.join(staging, artifact.path);
      await mkdir(path.dirname(file), { recursive: true });
      if (!(await bucket.download(prefix + artifact.path, file, signal))) throw new ReleaseError(`${artifact.path} of release ${release.id} is missing from the release store`);
      bytes += (await stat(file)).size;
    }
    const check = await verifyReleaseDir(staging, { expectedId: release.id, expectedManifest: release.manifest, signal });
    if (!check.ok) throw new ReleaseError(`release ${release.id} downloaded from the store fails verification: ${check.problems.join('; ')}`);
    await fsyncTree(staging, ['manifest.json', ...release.manifest.artifacts.map((a) => a.path)]);
    await mkdir(path.dirname(dir), { recursive: true });
    // A copy already there failed verification: move it out of the way, never serve it again.
    const broken = await stat(dir).then(() => true, () => false);
    if (broken) {
      const aside = `${staging}.broken`;
      await rename(dir, aside);
      await rm(aside, { recursive: true, force: true });
    }
    await rename(staging, dir);
    await fsyncPath(path.dirname(dir));
    return bytes;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
