import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Basemap } from '../../../engines/basemap/release.ts';
import { BASEMAP_KIND, BASEMAP_SERVED_MAX_ZOOM } from '../../../schemas/basemap-release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { BasemapTileParams, TILES_ERRORS } from '../../../schemas/tiles-api.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeTileCoordinates } from '../../params/tiles.ts';
import { sendTile } from '../../replies/tiles.ts';
import { basemapTileJsonRoute } from './tilejson.ts';

/** GET /tiles/{z}/{x}/{y}: a basemap tile as the enabled release stores it (gzip MVT); 204 beyond z14 or where there is none. GET /tiles.json: its TileJSON. */
export const basemapRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(basemapTileJsonRoute);
  app.get('/tiles/:z/:x/:y', {
    schema: {
      tags: ['maps'],
      summary: 'A basemap vector tile',
      description: 'Mapbox Vector Tile bytes (application/x-protobuf) in the Protomaps basemap schema (earth, water, landcover, landuse, roads, boundaries, buildings, places, pois), zoom 0 to 14. Pass the key as the key query parameter. A .pbf or .mvt suffix on y is stripped. 204 beyond zoom 14 or where no tile exists (ocean, outside the data).',
      params: BasemapTileParams,
      response: { ...errorResponses(TILES_ERRORS, 400, 503) },
    },
  }, async (request, reply) => {
    const tile = sanitizeTileCoordinates(request.params.z, request.params.x, request.params.y);
    if (!tile.ok) throw errors.tileBadRequest(tile.error);
    const { z, x, y } = tile.value;
    return app.releases.use(BASEMAP_KIND, async (basemap: Basemap) => {
      const bytes = z > BASEMAP_SERVED_MAX_ZOOM ? null : await basemap.archive.tile(z, x, y);
      return sendTile(request, reply, bytes, { etag: basemap.id, encoding: 'gzip', cacheControl: 'public, max-age=86400' });
    });
  });
};
