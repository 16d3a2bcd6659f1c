import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../../schemas/manifest.ts';
import type { ReleaseBucket } from './s3-client.ts';
import { releaseKeyPrefix } from './store-url.ts';

/**
 * Uploads a verified release directory to `<prefix>/<kind>/<id>/`: every artifact first, then
 * manifest.json, so whoever sees the manifest in the store sees a whole release. Uploading the
 * same release again overwrites it with the same bytes.
 */
export async function uploadRelease(bucket: ReleaseBucket, dir: string, manifest: Manifest): Promise<void> {
  const prefix = releaseKeyPrefix(bucket.location, manifest.kind, manifest.id);
  for (const artifact of manifest.artifacts) {
    await bucket.upload(prefix + artifact.path, path.join(dir, artifact.path), artifact.sha256);
  }
  const text = await readFile(path.join(dir, 'manifest.json'), 'utf8');
  await bucket.putText(`${prefix}manifest.json`, text, createHash('sha256').update(text).digest('hex'));
}

/**
 * Deletes a release from the store: manifest.json first (a reader then no longer takes it for a
 * whole release), then everything else under its prefix.
 */
export async function deleteStoredRelease(bucket: ReleaseBucket, release: { kind: string; id: string }): Promise<number> {
  const prefix = releaseKeyPrefix(bucket.location, release.kind, release.id);
  const keys = await bucket.list(prefix);
  const manifestKey = `${prefix}manifest.json`;
  const ordered = [...keys.filter((k) => k === manifestKey), ...keys.filter((k) => k !== manifestKey)];
  await bucket.remove(ordered);
  return ordered.length;
}
