import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseAssetVersion, parseFontstack, parseRangeFile } from '../../../engines/assets/glyph-request.ts';
import { ASSET_VERSIONS } from '../../../engines/styles/build-style.ts';
import { errors } from '../../errors.ts';
import { sendTile } from '../../replies/tiles.ts';
import { cacheControlFor, withAssets } from './assets-release.ts';

export const INVALID_FONTSTACK = 'invalid fontstack';
export const INVALID_RANGE = 'invalid range';
export const INVALID_VERSION = 'invalid version';

/**
 * One glyph range of a fontstack, gzip glyphs.proto (gunzipped for a client that refuses gzip).
 * A known stack with no glyph in the range gets an empty fontstack message, which MapLibre
 * takes without an error (a 404 would be logged as a failed request for every such range).
 */
export function serveGlyphRange(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  segments: { version: string | null; fontstack: string; range: string },
) {
  const version = segments.version === null ? null : parseAssetVersion(segments.version);
  if (version === null && segments.version !== null) throw errors.assetBadRequest(INVALID_VERSION);
  const fonts = parseFontstack(segments.fontstack);
  if (!fonts) throw errors.assetBadRequest(INVALID_FONTSTACK);
  const start = parseRangeFile(segments.range);
  if (start === null) throw errors.assetBadRequest(INVALID_RANGE);
  const cacheControl = cacheControlFor(version, ASSET_VERSIONS.glyphs);
  return withAssets(app, (assets) => {
    const answer = assets.glyphRange(fonts, start);
    if (!answer.ok) throw errors.assetNotFound();
    return sendTile(request, reply, answer.gzipped, { etag: assets.releaseId, encoding: 'gzip', cacheControl });
  });
}
