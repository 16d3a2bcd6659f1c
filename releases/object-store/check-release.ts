import { createHash } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import type { Manifest } from '../../schemas/manifest.ts';
import type { ReleaseBucket } from './s3-client.ts';
import { releaseKeyPrefix } from './store-url.ts';

export interface StoreCheck {
  ok: boolean;
  problems: string[];
}

async function readText(bucket: ReleaseBucket, key: string): Promise<string | null> {
  const body = await bucket.read(key);
  if (!body) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function hashObject(bucket: ReleaseBucket, key: string): Promise<{ bytes: number; sha256: string } | null> {
  const body = await bucket.read(key);
  if (!body) return null;
  const hash = createHash('sha256');
  let bytes = 0;
  for await (const chunk of body) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return { bytes, sha256: hash.digest('hex') };
}

/**
 * Checks the store's copy of a registered release: manifest.json is there and equals the
 * registered manifest, every artifact is there with its size, and nothing else is under its prefix.
 * `hash: true` streams every object through sha256 (`releases verify`); otherwise the sha256 the
 * uploader stored as object metadata is compared (`releases enable`, a publish that reuses a release),
 * the API nodes hashing every file they download anyway.
 */
export async function checkStoredRelease(
  bucket: ReleaseBucket,
  release: { kind: string; id: string; manifest: Manifest },
  options: { hash: boolean },
): Promise<StoreCheck> {
  const prefix = releaseKeyPrefix(bucket.location, release.kind, release.id);
  const problems: string[] = [];
  const text = await readText(bucket, `${prefix}manifest.json`);
  if (text === null) return { ok: false, problems: [`manifest.json is not in the release store (${bucket.describe()}/${release.kind}/${release.id}/)`] };
  try {
    if (!isDeepStrictEqual(JSON.parse(text), release.manifest)) problems.push('manifest.json in the store is not the registered manifest');
  } catch {
    problems.push('manifest.json in the store is not JSON');
  }
  for (const artifact of release.manifest.artifacts) {
    const key = prefix + artifact.path;
    const found = options.hash ? await hashObject(bucket, key) : await bucket.head(key);
    if (!found) {
      problems.push(`${artifact.path}: missing from the store`);
    } else if (found.bytes !== artifact.bytes) {
      problems.push(`${artifact.path}: ${found.bytes} bytes in the store, manifest says ${artifact.bytes}`);
    } else if (found.sha256 !== artifact.sha256) {
      problems.push(`${artifact.path}: ${options.hash ? 'checksum' : 'stored sha256 metadata'} differs from the manifest`);
    }
  }
  const listed = new Set([...release.manifest.artifacts.map((a) => prefix + a.path), `${prefix}manifest.json`]);
  for (const key of await bucket.list(prefix)) {
    if (!listed.has(key)) problems.push(`${key.slice(prefix.length)}: in the store but not listed in the manifest`);
  }
  return { ok: problems.length === 0, problems };
}
