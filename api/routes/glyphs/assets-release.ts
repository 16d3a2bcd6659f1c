import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Assets } from '../../../engines/assets/assets.ts';
import { ReleaseUnavailableError } from '../../../releases/unavailable.ts';
import { ASSETS_KIND } from '../../../schemas/assets-release.ts';
import { errors } from '../../errors.ts';

/** Versioned glyph and sprite URLs of the current version are immutable (volume 1 "Versioning"). */
export const IMMUTABLE = 'public, max-age=31536000, immutable';
/**
 * Unversioned and older-version URLs keep serving whatever release is enabled, so a cache may
 * hold them only a day (as tiles): a rebuilt release reaches them without a new URL.
 */
export const REVALIDATED = 'public, max-age=86400';

/** `null` for an unversioned URL. A version above `current` names assets that do not exist yet. */
export function cacheControlFor(version: number | null, current: number): string {
  if (version !== null && version > current) throw errors.assetNotFound();
  return version === current ? IMMUTABLE : REVALIDATED;
}

/**
 * Runs `fn` on the enabled assets release. Glyphs and sprites are static files to a map
 * client: without a release they are simply not found (plain-text 404), not a 503.
 */
export async function withAssets<T>(app: FastifyInstance, fn: (assets: Assets) => Promise<T> | T): Promise<T> {
  try {
    return await app.releases.use(ASSETS_KIND, async (assets: Assets) => fn(assets));
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) throw errors.assetNotFound();
    throw err;
  }
}

/** ETag names the release; a current one gets 304. Returns true when the 304 was sent. */
export function answeredNotModified(request: FastifyRequest, reply: FastifyReply, etag: string, cacheControl: string): boolean {
  reply.header('cache-control', cacheControl).header('etag', etag);
  if (!request.headers['if-none-match']?.split(',').some((t) => t.trim() === etag)) return false;
  reply.code(304).send();
  return true;
}
