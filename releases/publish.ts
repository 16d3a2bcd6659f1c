import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Pool } from 'pg';
import type { Manifest } from '../schemas/manifest.ts';
import { listArtifacts } from './checksum.ts';
import { fsyncPath, fsyncTree } from './fsync.ts';
import { computeContentHash, releaseIdFor, type HashedBuild } from './ids.ts';
import { deleteRelease, findReleaseByHash, registerRelease, ReleaseError, type RegisteredRelease } from './registry.ts';
import { checkStoredRelease } from './object-store/check-release.ts';
import type { ReleaseBucket } from './object-store/s3-client.ts';
import { uploadRelease } from './object-store/upload-release.ts';
import { makeStagingDir } from './staging.ts';
import { verifyReleaseDir } from './verify.ts';

export interface BuildOutcome {
  stats: Record<string, unknown>;
  coverage?: Record<string, unknown>[];
}

export interface PublishSpec extends HashedBuild {
  kind: string;
  /** Writes every artifact into stagingDir; each file there becomes a checksummed artifact. */
  build(stagingDir: string): Promise<BuildOutcome>;
  /** Frees what preparing held (loaded inputs); called once publishing is over, built or reused. */
  dispose?(): Promise<void>;
}

export interface PublishDeps {
  pool: Pool;
  releasesDir: string;
  /**
   * RELEASE_STORE: each release is uploaded there (manifest.json last) before it is registered,
   * and RELEASES_DIR is only this host's cache. Absent: RELEASES_DIR is where releases live.
   */
  store?: ReleaseBucket | null;
}

async function exists(p: string): Promise<boolean> {
  return stat(p).then(() => true, () => false);
}

/**
 * An already published release with this content, registered (again) if it is only on disk.
 * A registered one whose files were lost or damaged is dropped so it can be built afresh,
 * unless it is the enabled one (or its rollback target), which an operator has to sort out.
 */
async function existingRelease(deps: PublishDeps, kind: string, contentHash: string, candidateDir: string): Promise<RegisteredRelease | null> {
  const registered = await findReleaseByHash(deps.pool, kind, contentHash);
  if (registered) {
    const check = deps.store
      ? await checkStoredRelease(deps.store, registered, { hash: false })
      : await verifyReleaseDir(registered.path, { expectedId: registered.id, expectedManifest: registered.manifest });
    if (check.ok) return registered;
    if (!(await deleteRelease(deps.pool, registered))) {
      throw new ReleaseError(
        `release ${registered.id} has this content and is in service, but fails verification (${check.problems.join('; ')}); run canmap releases verify ${registered.id}`,
      );
    }
    await rm(registered.path, { recursive: true, force: true });
  }
  // Published to disk but not registered: a worker died between rename and registration.
  if (await exists(candidateDir)) {
    const check = await verifyReleaseDir(candidateDir);
    if (check.ok && check.manifest?.content_hash === contentHash) {
      if (deps.store) await uploadRelease(deps.store, candidateDir, check.manifest);
      return registerRelease(deps.pool, candidateDir, check.manifest);
    }
  }
  return null;
}

/**
 * Builds a release in staging, checksums it into manifest.json, fsyncs, renames it into
 * RELEASES_DIR/<kind>/<id> in one step and registers it. Nothing is visible until the rename,
 * and nothing is registered that does not verify. Same content hash → the existing release.
 * With a store, the verified release is uploaded (manifest.json last) before the rename.
 */
export async function publishRelease(deps: PublishDeps, spec: PublishSpec): Promise<{ release: RegisteredRelease; reused: boolean }> {
  try {
    return await publish(deps, spec);
  } finally {
    await spec.dispose?.();
  }
}

async function publish(deps: PublishDeps, spec: PublishSpec): Promise<{ release: RegisteredRelease; reused: boolean }> {
  const contentHash = computeContentHash(spec);
  const createdAt = new Date();
  const id = releaseIdFor(contentHash, createdAt);
  const kindDir = path.join(deps.releasesDir, spec.kind);
  const finalDir = path.join(kindDir, id);

  const existing = await existingRelease(deps, spec.kind, contentHash, finalDir);
  if (existing) return { release: existing, reused: true };

  const staging = await makeStagingDir(deps.releasesDir, `${spec.kind}-${id}`);
  try {
    const outcome = await spec.build(staging);
    const artifacts = await listArtifacts(staging);
    if (artifacts.length === 0) throw new ReleaseError(`${spec.kind} build produced no artifacts`);
    const manifest: Manifest = {
      id,
      kind: spec.kind,
      created_at: createdAt.toISOString(),
      content_hash: contentHash,
      builder_version: spec.builderVersion,
      schema_version: spec.schemaVersion,
      inputs: spec.inputs,
      artifacts,
      stats: outcome.stats,
      ...(outcome.coverage ? { coverage: outcome.coverage } : {}),
    };
    await writeFile(path.join(staging, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    await fsyncTree(staging, [...artifacts.map((a) => a.path), 'manifest.json']);

    const check = await verifyReleaseDir(staging);
    if (!check.ok) throw new ReleaseError(`${spec.kind} release ${id} failed verification: ${check.problems.join('; ')}`);
    // A failed upload throws here: nothing is registered, and the store has no manifest.json for it.
    if (deps.store) await uploadRelease(deps.store, staging, manifest);

    await mkdir(kindDir, { recursive: true });
    try {
      await rename(staging, finalDir);
    } catch (err) {
      // Another worker published the same content meanwhile: use theirs.
      const raced = await existingRelease(deps, spec.kind, contentHash, finalDir);
      if (raced) return { release: raced, reused: true };
      throw err;
    }
    await fsyncPath(kindDir);
    return { release: await registerRelease(deps.pool, finalDir, manifest), reused: false };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
