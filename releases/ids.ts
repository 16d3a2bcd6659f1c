import { createHash } from 'node:crypto';
import { canonicalJson } from '../lib/canonical-json.ts';
import type { ManifestInput } from '../schemas/manifest.ts';

export interface HashedBuild {
  builderVersion: string;
  schemaVersion: number;
  inputs: ManifestInput[];
  /** Anything else that changes what the release says (e.g. feeds assessed but refused). */
  context?: unknown;
}

/**
 * sha256 over everything a release is made of: builder and schema versions, each input's
 * content hash and terms (licence, attribution, source), and the builder's context. When an
 * input was fetched is left out: unchanged content at a later date is the same release.
 */
export function computeContentHash(build: HashedBuild): string {
  const inputs = [...build.inputs]
    .map(({ source_updated_at: _fetchedAt, ...input }) => input)
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const text = canonicalJson({ builder: build.builderVersion, schema: build.schemaVersion, inputs, context: build.context ?? null });
  return createHash('sha256').update(text).digest('hex');
}

/** `YYYY-MM-DD-<first 12 hex of the content hash>`, the date being the UTC build date. */
export function releaseIdFor(contentHash: string, date: Date = new Date()): string {
  return `${date.toISOString().slice(0, 10)}-${contentHash.slice(0, 12)}`;
}
