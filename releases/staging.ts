import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { leftByDeadProcess, ownerPrefix } from '../lib/process-owner.ts';

/**
 * Everything half-built lives under RELEASES_DIR/.staging, named `<host>~<pid>~<what>`, so a
 * process can tell its own host's leftovers from another host's on a shared volume, and a
 * dead process's from a live one's.
 */
export const STAGING_DIR = '.staging';

export function stagingRoot(releasesDir: string): string {
  return path.join(releasesDir, STAGING_DIR);
}

/** A new, empty staging directory owned by this process. */
export async function makeStagingDir(releasesDir: string, what: string): Promise<string> {
  return makeOwnedDir(stagingRoot(releasesDir), what);
}

/** A new, empty directory in `root` named for this process, which removeDeadOwnedDirs can tell apart. */
export async function makeOwnedDir(root: string, what: string): Promise<string> {
  await mkdir(root, { recursive: true });
  return mkdtemp(path.join(root, `${ownerPrefix()}${what}-`));
}

/**
 * Removes this host's staging entries whose process is gone (a killed worker's partial build
 * or scratch files). Call before this process stages anything. Other hosts' entries are left alone.
 */
export async function removeDeadStaging(releasesDir: string): Promise<string[]> {
  return removeDeadOwnedDirs(stagingRoot(releasesDir));
}

/** Removes the entries of `root` made by makeOwnedDir on this host whose process is gone. */
export async function removeDeadOwnedDirs(root: string): Promise<string[]> {
  const entries = await readdir(root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const removed: string[] = [];
  for (const name of entries) {
    if (!leftByDeadProcess(name)) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
