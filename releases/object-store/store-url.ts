import { ReleaseError } from '../errors.ts';

/** Where releases live in object storage: a bucket and a key prefix ('' or 'a/b', no slashes at the ends). */
export interface StoreLocation {
  bucket: string;
  prefix: string;
}

/** Parses RELEASE_STORE, `s3://bucket` or `s3://bucket/prefix`. */
export function parseStoreUrl(url: string): StoreLocation {
  const match = /^s3:\/\/([^/]+)(?:\/(.*))?$/.exec(url.trim());
  if (!match) throw new ReleaseError(`RELEASE_STORE must look like s3://bucket/prefix, got ${JSON.stringify(url)}`);
  return { bucket: match[1]!, prefix: (match[2] ?? '').replace(/^\/+|\/+$/g, '') };
}

/** The key prefix of one release, ending in '/': `<prefix>/<kind>/<id>/`. */
export function releaseKeyPrefix(location: StoreLocation, kind: string, id: string): string {
  return `${[location.prefix, kind, id].filter(Boolean).join('/')}/`;
}

/** `s3://bucket/prefix/kind/id/` for messages. */
export function releaseStoreUrl(location: StoreLocation, kind: string, id: string): string {
  return `s3://${location.bucket}/${releaseKeyPrefix(location, kind, id)}`;
}
