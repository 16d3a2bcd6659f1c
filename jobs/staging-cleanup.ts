import { readdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { stagingRoot } from '../releases/publish.ts';

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
 * Removes `RELEASES_DIR/.staging/<pid>-*` left by processes that are gone (a killed worker's
 * partial build or scratch files). Call before this process stages anything. Assumes one host
 * per RELEASES_DIR, since pids are only meaningful there.
 */
export async function removeDeadStaging(releasesDir: string): Promise<string[]> {
  const root = stagingRoot(releasesDir);
  const entries = await readdir(root).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [] as string[];
    throw err;
  });
  const removed: string[] = [];
  for (const name of entries) {
    const pid = /^(\d+)-/.exec(name)?.[1];
    if (!pid || isAlive(Number(pid))) continue;
    await rm(path.join(root, name), { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
