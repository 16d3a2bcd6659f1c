import { ASSET_VERSIONS } from '../../engines/styles/build-style.ts';
import { errors } from '../../lib/errors.ts';

/**
 * Volume 1 "Versioning": asset paths carry a version segment so a rebuilt archive gets new URLs.
 * The current version (what styles emit, ASSET_VERSIONS) is immutable for a year. An older one
 * and the unversioned form keep serving the enabled release, cached for a day and revalidated by
 * ETag (old styles keep working, and a URL cached for good never comes to mean other bytes). A
 * newer one names what does not exist yet (404); a segment that is not a positive integer is 400.
 */
export const VERSIONED_CACHE = 'public, max-age=31536000, immutable';
export const UNVERSIONED_CACHE = 'public, max-age=86400';
export const INVALID_VERSION = 'invalid version';

export type VersionedAsset = keyof typeof ASSET_VERSIONS;

/** The Cache-Control of an asset URL; `segment` is null for the unversioned form. Throws the plain-text 400/404. */
export function assetCacheControl(asset: VersionedAsset, segment: string | null): string {
  if (segment === null) return UNVERSIONED_CACHE;
  if (!/^[1-9]\d{0,8}$/.test(segment)) throw errors.tileBadRequest(INVALID_VERSION);
  const version = Number(segment);
  const current = ASSET_VERSIONS[asset];
  if (version > current) throw errors.tileNotFound(`${asset} version ${version} does not exist; the current version is ${current}`);
  return version === current ? VERSIONED_CACHE : UNVERSIONED_CACHE;
}
