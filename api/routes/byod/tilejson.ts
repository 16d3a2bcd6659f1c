import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BYOD_ERRORS, ByodIdParams } from '../../../schemas/byod-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { TileJson } from '../../../schemas/tiles-api.ts';
import { presentedKey } from '../../access/credentials.ts';
import { sendTileJson } from '../../replies/tilejson.ts';

/** GET /byod/{id}/tiles.json: a ready overlay of the caller's as a TileJSON 3.0.0 source. */
export const overlayTileJsonRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/byod/:id/tiles.json', {
    schema: {
      tags: ['byod'],
      summary: 'An uploaded overlay as TileJSON',
      description: 'TileJSON 3.0.0 of the overlay\'s tiles: tile URL with the key embedded, zooms, bounds, centre and the vector layers with their fields. 404 for an overlay not yet tiled (or whose tiling failed), like an unknown one.',
      params: ByodIdParams,
      response: { 200: TileJson, ...errorResponses({ ...BYOD_ERRORS, 404: 'no overlay of this account has this id, or it has no tiles (still being tiled, or its tiling failed)' }, 400, 404) },
    },
  }, async (request, reply) => {
    const document = await app.services.byod.tileJson(request.apiKey!, request.params.id, { baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '' });
    return sendTileJson(request, reply, document);
  });
};
