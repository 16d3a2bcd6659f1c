import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errorResponses } from '../../../schemas/common.ts';
import { TERRAIN_TILE_ERRORS, TileParams, VersionedTileParams } from '../../../schemas/terrain-api.ts';
import { errors } from '../../../lib/errors.ts';
import { assetCacheControl } from '../../params/asset-version.ts';
import { INVALID_TILE_COORDINATES, sanitizeTileCoordinates } from '../../params/tiles.ts';
import { sendBytes } from '../../replies/bytes.ts';
import { archiveTile, useTerrain } from './served-archive.ts';

const DESCRIPTION = 'Terrarium-encoded elevation PNG (image/png, 256 px; height = R×256 + G + B/256 − 32768 m; alpha 0 where there is no data), zoom 0 to 12. '
  + 'Pass the key as the key query parameter. 204 where there is no tile or beyond zoom 12. Errors are plain text except the JSON 404 when no terrain archive is configured.';

/** GET /terrain/{version}/{z}/{x}/{y}.png and its unversioned form /terrain/{z}/{x}/{y}.png. */
export const terrainTileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const serve = (request: FastifyRequest, reply: FastifyReply, params: { z: string; x: string; y: string }, cacheControl: string) => {
    // the .png suffix is optional; a vector tile suffix is not a terrain tile
    const y = params.y.endsWith('.png') ? params.y.slice(0, -4) : params.y;
    if (!/^\d+$/.test(y)) throw errors.tileBadRequest(INVALID_TILE_COORDINATES);
    const tile = sanitizeTileCoordinates(params.z, params.x, y);
    if (!tile.ok) throw errors.tileBadRequest(tile.error);
    return useTerrain(app, 'terrain', async (release) => {
      if (!release.terrarium) throw errors.archiveNotConfigured('terrain');
      const { z, x, y: ty } = tile.value;
      return sendBytes(request, reply, await archiveTile(release.terrarium, z, x, ty), { etag: release.releaseId, cacheControl, type: 'image/png' });
    });
  };

  app.get('/terrain/:version/:z/:x/:y', {
    schema: {
      tags: ['maps'],
      summary: 'A terrain (terrarium elevation) tile',
      description: `${DESCRIPTION} The current version (4, as styles emit) is cached immutable for a year; an older one serves the enabled archive for a day; a newer one is 404.`,
      params: VersionedTileParams,
      response: errorResponses(TERRAIN_TILE_ERRORS, 400, 404, 503),
    },
  }, (request, reply) => serve(request, reply, request.params, assetCacheControl('terrain', request.params.version)));

  app.get('/terrain/:z/:x/:y', {
    schema: {
      tags: ['maps'],
      summary: 'A terrain tile (unversioned form)',
      description: `${DESCRIPTION} Follows the enabled archive; cached for a day.`,
      params: TileParams,
      response: errorResponses(TERRAIN_TILE_ERRORS, 400, 404, 503),
    },
  }, (request, reply) => serve(request, reply, request.params, assetCacheControl('terrain', null)));
};
