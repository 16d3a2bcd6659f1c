import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOD_ERRORS, ByodTileParams } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeTileCoordinates } from '../../params/tiles.ts';
import { sendTile } from '../../replies/tiles.ts';

/**
 * GET /byod/{id}/{z}/{x}/{y}: a tile of the overlay's archive (the PMTiles upload, or the tiles
 * made of a GeoJSON upload) as stored. 204 while a GeoJSON upload is not tiled (or failed), outside
 * its zooms, or where it has no tile. Errors in plain text. Cached privately: uploads are per account.
 */
export const tileRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/byod/:id/:z/:x/:y', {
    schema: {
      tags: ['byod'],
      summary: 'A tile of an uploaded overlay',
      description: 'Mapbox Vector Tile bytes (application/x-protobuf). Pass the key as the key query parameter. A .pbf or .mvt suffix on y is accepted.',
      params: ByodTileParams,
      response: { ...errorResponses({ ...BYOD_ERRORS, 400: 'invalid tile coordinates (plain text)', 404: 'not found (plain text)' }, 400, 404) },
    },
  }, async (request, reply) => {
    const { id, z, x, y } = request.params;
    const tile = sanitizeTileCoordinates(z, x, y);
    if (!tile.ok) throw errors.tileBadRequest(tile.error);
    const row = await app.services.byod.findForTiles(request.apiKey!, id);
    if (!row) throw errors.tileNotFound('overlay not found');
    const options = { etag: `byod-${row.id}`, encoding: 'gzip' as const, cacheControl: 'private, max-age=3600' };
    const { z: tz, x: tx, y: ty } = tile.value;
    if (row.status !== 'ready' || tz < row.min_zoom! || tz > row.max_zoom!) return sendTile(request, reply, null, options);
    const { bytes, gzip } = await app.services.byod.tile(row, tz, tx, ty);
    return sendTile(request, reply, bytes, { ...options, encoding: gzip ? 'gzip' : 'identity' });
  });
};
