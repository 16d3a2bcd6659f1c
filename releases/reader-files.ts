import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Manifest } from '../schemas/manifest.ts';

/**
 * A cheap fingerprint of a release's files on disk (size, mtime and inode of manifest.json and
 * every artifact), compared on each poll to notice a served file being changed or replaced
 * without re-hashing gigabytes.
 */
export async function filesFingerprint(dir: string, manifest: Manifest): Promise<string> {
  const parts: string[] = [];
  for (const rel of ['manifest.json', ...manifest.artifacts.map((a) => a.path)]) {
    try {
      const s = await stat(path.join(dir, rel));
      parts.push(`${rel}:${s.size}:${s.mtimeMs}:${s.ino}`);
    } catch {
      parts.push(`${rel}:missing`);
    }
  }
  return parts.join('\n');
}

/** Paths whose entries differ between two fingerprints (for the log and the status reason). */
export function changedFiles(before: string, after: string): string[] {
  const old = new Set(before.split('\n'));
  return after.split('\n').filter((line) => !old.has(line)).map((line) => line.split(':')[0] ?? line);
}
