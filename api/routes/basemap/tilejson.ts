import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import { TILES_ERRORS, TileJson } from '../../../schemas/tiles-api.ts';
import { presentedKey } from '../../access/credentials.ts';
import { sendTileJson } from '../../replies/tilejson.ts';

/** GET /tiles.json: the basemap as a TileJSON 3.0.0 source. */
export const basemapTileJsonRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/tiles.json', {
    schema: {
      tags: ['maps'],
      summary: 'The basemap as TileJSON',
      description: 'TileJSON 3.0.0 of the basemap: tile URL with the key embedded, zooms, bounds, centre, attribution and the vector layers with their fields, as the enabled release\'s archive states them. Metered as one call of the maps family.',
      response: { 200: TileJson, ...errorResponses(TILES_ERRORS, 503) },
    },
  }, async (request, reply) => {
    const document = await app.services.maps.basemapTileJson({ baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '' });
    return sendTileJson(request, reply, document);
  });
};
