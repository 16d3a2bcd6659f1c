import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../../schemas/common.ts';
import { TERRAIN_TILE_ERRORS, TileParams, VersionedTileParams } from '../../../schemas/terrain-api.ts';
import { errors } from '../../../lib/errors.ts';
import { assetCacheControl } from '../../params/asset-version.ts';
import { sanitizeTileCoordinates } from '../../params/tiles.ts';
import { sendTile } from '../../replies/tiles.ts';
import { archiveTile, useTerrain } from './served-archive.ts';

const DESCRIPTION = 'Contour lines as Mapbox Vector Tile bytes (application/x-protobuf), zoom 9 to 13 (clients overzoom to 14): source layer contours, '
  + 'properties ele (metres) and index (every fifth interval); intervals 100 m at z9, 50 m at z10–11, 20 m from z12; no 0 m line. '
  + 'Derived from SRTM (about 30 m), not for navigation. A .pbf or .mvt suffix on y is accepted. 204 where there is no tile or outside zoom 9–13. '
  + 'Errors are plain text except the JSON 404 when no contour archive is configured.';

/** GET /contours/{version}/{z}/{x}/{y} and its unversioned form /contours/{z}/{x}/{y}. */
export const contourTileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const serve = (request: FastifyRequest, reply: FastifyReply, params: { z: string; x: string; y: string }, cacheControl: string) => {
    const tile = sanitizeTileCoordinates(params.z, params.x, params.y);
    if (!tile.ok) throw errors.tileBadRequest(tile.error);
    return useTerrain(app, 'contour', async (release) => {
      if (!release.contours) throw errors.archiveNotConfigured('contour');
      const { z, x, y } = tile.value;
      return sendTile(request, reply, await archiveTile(release.contours, z, x, y), { etag: release.releaseId, encoding: 'gzip', cacheControl });
    });
  };

  app.get('/contours/:version/:z/:x/:y', {
    schema: {
      tags: ['maps'],
      summary: 'A contour tile',
      description: `${DESCRIPTION} The current version (4, as styles emit) is cached immutable for a year; an older one serves the enabled archive for a day; a newer one is 404.`,
      params: VersionedTileParams,
      response: errorResponses(TERRAIN_TILE_ERRORS, 400, 404, 503),
    },
  }, (request, reply) => serve(request, reply, request.params, assetCacheControl('contours', request.params.version)));

  app.get('/contours/:z/:x/:y', {
    schema: {
      tags: ['maps'],
      summary: 'A contour tile (unversioned form)',
      description: `${DESCRIPTION} Follows the enabled archive; cached for a day.`,
      params: TileParams,
      response: errorResponses(TERRAIN_TILE_ERRORS, 400, 404, 503),
    },
  }, (request, reply) => serve(request, reply, request.params, assetCacheControl('contours', null)));
};
