import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { ManifestArtifact } from '../schemas/manifest.ts';

/** Streams the file through the hash (never one huge read); `signal` stops it with an AbortError. */
export async function sha256File(file: string, signal?: AbortSignal): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file, { signal })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** Relative '/'-separated paths of every regular file under dir except manifest.json, sorted. */
export async function listArtifactPaths(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)).split(path.sep).join('/'))
    .filter((rel) => rel !== 'manifest.json')
    .sort();
}

export async function listArtifacts(dir: string): Promise<ManifestArtifact[]> {
  const artifacts: ManifestArtifact[] = [];
  for (const rel of await listArtifactPaths(dir)) {
    const full = path.join(dir, rel);
    artifacts.push({ path: rel, bytes: (await stat(full)).size, sha256: await sha256File(full) });
  }
  return artifacts;
}
