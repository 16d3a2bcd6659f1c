import type { FastifyInstance } from 'fastify';
import type { Assets } from '../../../engines/assets/assets.ts';
import { ReleaseUnavailableError } from '../../../releases/unavailable.ts';
import { ASSETS_KIND } from '../../../schemas/assets-release.ts';
import { errors } from '../../../lib/errors.ts';

/**
 * Runs `fn` on the enabled assets release. Glyphs and sprites are static files to a map
 * client: without a release they are simply not found (plain-text 404), not a 503.
 */
export async function withAssets<T>(app: FastifyInstance, fn: (assets: Assets) => Promise<T> | T): Promise<T> {
  try {
    return await app.releases.use(ASSETS_KIND, async (assets: Assets) => fn(assets));
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) throw errors.tileNotFound();
    throw err;
  }
}
