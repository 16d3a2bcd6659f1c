import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { Manifest } from '../schemas/manifest.ts';
import { listArtifactPaths, sha256File } from './checksum.ts';

export interface VerifyResult {
  ok: boolean;
  manifest: Manifest | null;
  problems: string[];
}

export async function readManifest(dir: string): Promise<Manifest> {
  const text = await readFile(path.join(dir, 'manifest.json'), 'utf8');
  const data: unknown = JSON.parse(text);
  const error = Value.Errors(Manifest, data).First();
  if (error) throw new Error(`manifest.json ${error.path || '/'} ${error.message}`);
  return data as Manifest;
}

/** Recomputes every artifact's checksum and compares it, and the file list, with manifest.json. */
export async function verifyReleaseDir(dir: string, options: { expectedId?: string } = {}): Promise<VerifyResult> {
  let manifest: Manifest;
  try {
    manifest = await readManifest(dir);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'release directory or manifest.json is missing' : (err as Error).message;
    return { ok: false, manifest: null, problems: [reason] };
  }
  const problems: string[] = [];
  if (options.expectedId && manifest.id !== options.expectedId) problems.push(`manifest id ${manifest.id} is not ${options.expectedId}`);
  for (const artifact of manifest.artifacts) {
    const file = path.join(dir, artifact.path);
    try {
      const size = (await stat(file)).size;
      if (size !== artifact.bytes) {
        problems.push(`${artifact.path}: ${size} bytes, manifest says ${artifact.bytes}`);
        continue;
      }
      if ((await sha256File(file)) !== artifact.sha256) problems.push(`${artifact.path}: checksum differs from the manifest`);
    } catch {
      problems.push(`${artifact.path}: missing`);
    }
  }
  const listed = new Set(manifest.artifacts.map((a) => a.path));
  for (const found of await listArtifactPaths(dir).catch(() => [])) {
    if (!listed.has(found)) problems.push(`${found}: not listed in the manifest`);
  }
  return { ok: problems.length === 0, manifest, problems };
}
