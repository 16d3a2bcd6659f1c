import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Everything half-built lives under RELEASES_DIR/.staging, named `<host>~<pid>~<what>`, so a
 * process can tell its own host's leftovers from another host's on a shared volume, and a
 * dead process's from a live one's.
 */
export const STAGING_DIR = '.staging';

export function stagingRoot(releasesDir: string): string {
  return path.join(releasesDir, STAGING_DIR);
}

function hostTag(): string {
  return os.hostname().replace(/[^A-Za-z0-9.-]/g, '_');
}

/** A new, empty staging directory owned by this process. */
export async function makeStagingDir(releasesDir: string, what: string): Promise<string> {
  const root = stagingRoot(releasesDir);
  await mkdir(root, { recursive: true });
  return mkdtemp(path.join(root, `${hostTag()}~${process.pid}~${what}-`));
}

function isAlive(pid: number): boolean {
  if (pid === process.pid) return false; // ours from a previous life (same pid after a restart in a container)
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes this host's staging entries whose process is gone (a killed worker's partial build
 * or scratch files). Call before this process stages anything. Other hosts' entries are left alone.
 */
export async function removeDeadStaging(releasesDir: string): Promise<string[]> {
  const root = stagingRoot(releasesDir);
  const entries = await readdir(root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const removed: string[] = [];
  for (const name of entries) {
    const owner = /^([^~]+)~(\d+)~/.exec(name);
    if (!owner || owner[1] !== hostTag() || isAlive(Number(owner[2]))) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
