import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAssetVersion } from '../../../engines/assets/glyph-request.ts';
import { parseSpriteFile } from '../../../engines/assets/sprite-file.ts';
import { ASSET_VERSIONS } from '../../../engines/styles/build-style.ts';
import { errors } from '../../errors.ts';
import { answeredNotModified, cacheControlFor, withAssets } from '../glyphs/assets-release.ts';

export const UNEXPECTED_EXTENSION = 'unexpected extension: use .json or .png';

/** One sprite file, `<sheet>[@2x].json` or `.png`, as the release stores it. */
export function serveSpriteFile(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  segments: { version: string | null; file: string },
) {
  const version = segments.version === null ? null : parseAssetVersion(segments.version);
  if (version === null && segments.version !== null) throw errors.assetBadRequest('invalid version');
  const wanted = parseSpriteFile(segments.file);
  if (!wanted.ok) throw wanted.reason === 'extension' ? errors.assetBadRequest(UNEXPECTED_EXTENSION) : errors.assetNotFound();
  const cacheControl = cacheControlFor(version, ASSET_VERSIONS.sprite);
  return withAssets(app, (assets) => {
    const bytes = assets.spriteFile(wanted.file);
    if (!bytes) throw errors.assetNotFound();
    if (answeredNotModified(request, reply, `"${assets.releaseId}"`, cacheControl)) return reply;
    return reply.type(wanted.type).send(bytes);
  });
}
