import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CATALOG_ERRORS, LayerParams } from '../../../schemas/catalog-api.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { TileJson } from '../../../schemas/tiles-api.ts';
import { presentedKey } from '../../access/credentials.ts';
import { sendTileJson } from '../../replies/tilejson.ts';

/** GET /layers/{id}/tiles.json: a tiled layer as a TileJSON 3.0.0 source, gated like its tiles. */
export const layerTileJsonRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/layers/:id/tiles.json', {
    schema: {
      tags: ['catalog'],
      summary: 'An overlay layer as TileJSON',
      description: 'TileJSON 3.0.0 of the layer\'s archive: tile URL with the key embedded, the zooms its tiles are served at, bounds, centre, attribution and the vector layers with their fields. Needs the layer\'s add-on like its tiles; metered as one call of the catalog family.',
      params: LayerParams,
      response: { 200: TileJson, ...errorResponses(CATALOG_ERRORS, 403, 404, 410, 503) },
    },
  }, async (request, reply) => {
    const document = await app.services.catalog.tileJson(request.params.id, { baseUrl: app.config.baseUrl, key: presentedKey(request) ?? '' });
    return sendTileJson(request, reply, document);
  });
};
