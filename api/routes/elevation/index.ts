import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../schemas/common.ts';
import {
  ELEVATION_ERRORS, ElevationQuery, ElevationResponse, MAX_PATH_POINTS, MAX_PROFILE_SAMPLES,
  type ElevationPointResponse, type ElevationProfileResponse,
} from '../../../schemas/elevation-api.ts';
import { errors } from '../../../lib/errors.ts';
import type { Services } from '../../../services/index.ts';
import { sanitizeElevationQuery } from './params.ts';

/** GET /elevation: heights from the enabled terrain release's DEM, at a point or along a path. */
export const elevationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/elevation', {
    schema: {
      tags: ['maps'],
      summary: 'Height of a point, or a profile along a path',
      description: 'Samples the DEM the terrain archive was built from (SRTM, metres above the EGM96 geoid), bilinear between the four posts '
        + 'around a point and exact at a post, to the centimetre. at=lng,lat (or lon and lat) answers one point; '
        + `path=lng,lat;lng,lat;... (2 to ${MAX_PATH_POINTS} points) answers a profile with cumulative great-circle distances, at the path's points or, `
        + `with samples=N (2 to ${MAX_PROFILE_SAMPLES}), at N points evenly spaced along it. Outside coverage the elevation is null, not an error. `
        + '404 when no terrain archive is configured.',
      querystring: ElevationQuery,
      response: { 200: ElevationResponse, ...errorResponses(ELEVATION_ERRORS, 400, 404, 503) },
    },
  }, (request) => elevationAt(app.services, request.query));
};

/** The answer of GET /elevation for a validated query: every front door's. */
export function elevationAt(services: Services, query: ElevationQuery): Promise<ElevationPointResponse | ElevationProfileResponse> {
  const asked = sanitizeElevationQuery(query);
  if (!asked.ok) throw errors.badRequest(asked.error);
  return services.maps.elevation(asked.value);
}
