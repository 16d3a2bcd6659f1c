import { rm } from 'node:fs/promises';
import type { Pool } from 'pg';
import { cachedReleaseDir } from './object-store/download-release.ts';
import type { ReleaseBucket } from './object-store/s3-client.ts';
import { deleteStoredRelease } from './object-store/upload-release.ts';
import { deleteRelease, getEnabledRelease, listReleases, predecessorOf } from './registry.ts';

export interface PruneResult {
  removed: { id: string; kind: string; path: string }[];
  kept: { id: string; kind: string; why: string }[];
}

export interface PruneOptions {
  kind?: string;
  dryRun?: boolean;
  /** RELEASE_STORE and this host's RELEASES_DIR: the store's copy and this host's cached copy go too. */
  store?: { bucket: ReleaseBucket; releasesDir: string } | null;
}

/**
 * Per kind: keeps the `keep` newest releases, the enabled one and the one a rollback would
 * return to; removes the rest (registry row first, under the kind's lock, then the files, and
 * with a store its objects; other hosts' caches drop their copies on their next poll).
 */
export async function pruneReleases(pool: Pool, keep: number, options: PruneOptions = {}): Promise<PruneResult> {
  const result: PruneResult = { removed: [], kept: [] };
  const all = await listReleases(pool, options.kind);
  for (const kind of new Set(all.map((r) => r.kind))) {
    const enabled = (await getEnabledRelease(pool, kind))?.id ?? null;
    const predecessor = enabled ? await predecessorOf(pool, kind, enabled) : null;
    const newest = all.filter((r) => r.kind === kind); // listReleases orders newest first
    newest.forEach((release, index) => {
      const why = release.id === enabled ? 'enabled' : release.id === predecessor ? 'rollback target' : index < keep ? `among the ${keep} newest` : null;
      if (why) result.kept.push({ id: release.id, kind, why });
      else result.removed.push({ id: release.id, kind, path: release.path });
    });
  }
  if (options.dryRun) return result;
  const removed: PruneResult['removed'] = [];
  for (const release of result.removed) {
    // Enabled (or made a rollback target) since the listing above: keep it after all.
    if (!(await deleteRelease(pool, release))) {
      result.kept.push({ id: release.id, kind: release.kind, why: 'enabled meanwhile' });
      continue;
    }
    await rm(release.path, { recursive: true, force: true });
    if (options.store) {
      await deleteStoredRelease(options.store.bucket, release);
      await rm(cachedReleaseDir(options.store.releasesDir, release), { recursive: true, force: true });
    }
    removed.push(release);
  }
  return { ...result, removed };
}
