import { open } from 'node:fs/promises';
import path from 'node:path';

/** Flushes a file or directory entry to disk (directories so that renames inside them survive a crash). */
export async function fsyncPath(target: string): Promise<void> {
  const handle = await open(target, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export async function fsyncTree(dir: string, files: string[]): Promise<void> {
  for (const file of files) await fsyncPath(path.join(dir, file));
  const dirs = new Set(files.map((f) => path.dirname(path.join(dir, f))));
  for (const d of dirs) await fsyncPath(d);
}
