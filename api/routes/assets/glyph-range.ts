import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseFontstack, parseRangeFile } from '../../../engines/assets/glyph-request.ts';
import { errors } from '../../../lib/errors.ts';
import { assetCacheControl } from '../../params/asset-version.ts';
import { sendTile } from '../../replies/tiles.ts';
import { withAssets } from './assets-release.ts';

export const INVALID_FONTSTACK = 'invalid fontstack';
export const INVALID_RANGE = 'invalid range';

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
  const cacheControl = assetCacheControl('glyphs', segments.version);
  const fonts = parseFontstack(segments.fontstack);
  if (!fonts) throw errors.tileBadRequest(INVALID_FONTSTACK);
  const start = parseRangeFile(segments.range);
  if (start === null) throw errors.tileBadRequest(INVALID_RANGE);
  return withAssets(app, (assets) => {
    const answer = assets.glyphRange(fonts, start);
    if (!answer.ok) throw errors.tileNotFound();
    return sendTile(request, reply, answer.gzipped, { etag: assets.releaseId, encoding: 'gzip', cacheControl });
  });
}
