import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
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

export interface VerifyOptions {
  /** The id the release must carry. */
  expectedId?: string;
  /**
   * The manifest registered in Postgres. The files are checked against it, not against the
   * manifest.json beside them (which must equal it): a directory rewritten consistently, new data
   * and a new manifest.json together, then fails.
   */
  expectedManifest?: Manifest;
  /** Stops hashing (the API's background re-verify on shutdown): the call then throws, it reports no problem. */
  signal?: AbortSignal;
}

/** Top-level manifest members whose values differ (for a readable problem). */
function differingMembers(a: Manifest, b: Manifest): string[] {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].filter((k) => !isDeepStrictEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])).sort();
}

/**
 * Recomputes every artifact's size and checksum and compares them, and the file list, with the
 * expected manifest (the registered one when given, else manifest.json).
 */
export async function verifyReleaseDir(dir: string, options: VerifyOptions = {}): Promise<VerifyResult> {
  let onDisk: Manifest;
  try {
    onDisk = await readManifest(dir);
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'release directory or manifest.json is missing' : (err as Error).message;
    return { ok: false, manifest: null, problems: [reason] };
  }
  const problems: string[] = [];
  if (options.expectedId && onDisk.id !== options.expectedId) problems.push(`manifest id ${onDisk.id} is not ${options.expectedId}`);
  const expected = options.expectedManifest ?? onDisk;
  if (options.expectedManifest) {
    const differing = differingMembers(onDisk, options.expectedManifest);
    if (differing.length) problems.push(`manifest.json is not the registered manifest (${differing.join(', ')} differ)`);
  }
  for (const artifact of expected.artifacts) {
    options.signal?.throwIfAborted();
    const file = path.join(dir, artifact.path);
    try {
      const size = (await stat(file)).size;
      if (size !== artifact.bytes) {
        problems.push(`${artifact.path}: ${size} bytes, manifest says ${artifact.bytes}`);
        continue;
      }
      if ((await sha256File(file, options.signal)) !== artifact.sha256) problems.push(`${artifact.path}: checksum differs from the manifest`);
    } catch (err) {
      if (options.signal?.aborted) throw err;
      problems.push(`${artifact.path}: missing`);
    }
  }
  const listed = new Set(expected.artifacts.map((a) => a.path));
  for (const found of await listArtifactPaths(dir).catch(() => [])) {
    if (!listed.has(found)) problems.push(`${found}: not listed in the manifest`);
  }
  return { ok: problems.length === 0, manifest: expected, problems };
}
