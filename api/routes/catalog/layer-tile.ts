import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Catalog } from '../../../engines/catalog/catalog.ts';
import { RETIRED_LAYERS } from '../../../engines/catalog/retired.ts';
import { CATALOG_ERRORS, LayerTileParams } from '../../../schemas/catalog-api.ts';
import { CATALOG_KIND } from '../../../schemas/catalog-release.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { errors } from '../../../lib/errors.ts';
import { sanitizeTileCoordinates } from '../../params/tiles.ts';
import { sendTile } from '../../replies/tiles.ts';

/**
 * GET /layers/{id}/{z}/{x}/{y}: an overlay tile as the archive stores it (gzip MVT). 204 outside
 * the layer's zooms or where it has no tile; errors in plain text, except the JSON 403 of the
 * add-on check.
 */
export const layerTileRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/layers/:id/:z/:x/:y', {
    schema: {
      tags: ['catalog'],
      summary: 'An overlay tile',
      description: 'Mapbox Vector Tile bytes (application/x-protobuf). Pass the key as the key query parameter. A .pbf or .mvt suffix on y is accepted.',
      params: LayerTileParams,
      response: { ...errorResponses(CATALOG_ERRORS, 400, 403, 404, 410, 503) },
    },
  }, async (request, reply) => {
    const { id, z, x, y } = request.params;
    const tile = sanitizeTileCoordinates(z, x, y);
    if (!tile.ok) throw errors.tileBadRequest(tile.error);
    const replacement = RETIRED_LAYERS.get(id);
    if (replacement) throw errors.layerRetired(id, replacement, true);
    return app.releases.use(CATALOG_KIND, async (catalog: Catalog) => {
      const entry = catalog.layer(id);
      if (!entry) throw errors.tileNotFound(`unknown layer ${id}`);
      const archive = entry.row.archives[0];
      if (!archive || !catalog.hasArchive(archive.id)) throw errors.tileNotFound(`layer ${id} has no tile archive yet`);
      const { z: tz, x: tx, y: ty } = tile.value;
      const bytes = tz < archive.minzoom || tz > archive.maxzoom ? null : await catalog.tile(archive.id, tz, tx, ty);
      return sendTile(request, reply, bytes, {
        etag: catalog.releaseId,
        encoding: 'gzip',
        // A gated layer's tiles must not be served to others by a shared cache.
        cacheControl: entry.row.addon === 'core' ? 'public, max-age=86400' : 'private, max-age=86400',
      });
    });
  });
};
