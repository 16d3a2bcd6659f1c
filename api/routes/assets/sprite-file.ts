import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { parseSpriteFile } from '../../../engines/assets/sprite-file.ts';
import { errors } from '../../../lib/errors.ts';
import { assetCacheControl } from '../../params/asset-version.ts';
import { sendBytes } from '../../replies/bytes.ts';
import { withAssets } from './assets-release.ts';

export const UNEXPECTED_EXTENSION = 'unexpected extension: use .json or .png';

/** One sprite file, `<sheet>[@2x].json` or `.png`, as the release stores it. */
export function serveSpriteFile(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  segments: { version: string | null; file: string },
) {
  const cacheControl = assetCacheControl('sprite', segments.version);
  const wanted = parseSpriteFile(segments.file);
  if (!wanted.ok) throw wanted.reason === 'extension' ? errors.tileBadRequest(UNEXPECTED_EXTENSION) : errors.tileNotFound();
  return withAssets(app, (assets) => {
    const bytes = assets.spriteFile(wanted.file);
    if (!bytes) throw errors.tileNotFound();
    return sendBytes(request, reply, bytes, { etag: assets.releaseId, cacheControl, type: wanted.type });
  });
}
