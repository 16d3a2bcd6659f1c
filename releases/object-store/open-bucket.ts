import type { ReleaseBucket } from './s3-client.ts';
import { parseStoreUrl } from './store-url.ts';

/**
 * RELEASE_STORE's bucket, or null when releases stay on this host's disk. The AWS SDK is loaded
 * only here, when a store is set: a host without one never pays for loading it.
 */
export async function openReleaseBucket(config: { releaseStore: string | null; s3Endpoint: string | null }): Promise<ReleaseBucket | null> {
  if (!config.releaseStore) return null;
  const location = parseStoreUrl(config.releaseStore);
  const { ReleaseBucket: Bucket } = await import('./s3-client.ts');
  return new Bucket(location, { endpoint: config.s3Endpoint });
}
