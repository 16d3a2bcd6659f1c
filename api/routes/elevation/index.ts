import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { elevationProfile } from '../../../engines/terrain/elevation-profile.ts';
import { errorResponses } from '../../../schemas/common.ts';
import {
  ELEVATION_DATUM, ELEVATION_ERRORS, ElevationQuery, ElevationResponse, MAX_PATH_POINTS, MAX_PROFILE_SAMPLES,
  type ElevationPointResponse, type ElevationProfileResponse,
} from '../../../schemas/elevation-api.ts';
import { errors } from '../../../lib/errors.ts';
import { useTerrain } from '../terrain/served-archive.ts';
import { sanitizeElevationQuery } from './params.ts';

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const metres = (value: number | null) => (value === null ? null : round(value, 2));

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
  }, (request) => {
    const query = sanitizeElevationQuery(request.query);
    if (!query.ok) throw errors.badRequest(query.error);
    const asked = query.value;
    return useTerrain(app, 'terrain', async ({ dem }): Promise<ElevationPointResponse | ElevationProfileResponse> => {
      if (asked.kind === 'point') {
        const [lng, lat] = asked.at;
        return { at: [lng, lat], elevation: metres(dem.elevationAt(lng, lat)), unit: 'm', datum: ELEVATION_DATUM };
      }
      const profile = elevationProfile(dem, asked.path, asked.samples);
      return {
        points: profile.points.map((p) => ({ at: p.at, distance: round(p.distance, 1), elevation: metres(p.elevation) })),
        length: round(profile.length, 1),
        min: metres(profile.min),
        max: metres(profile.max),
        ascent: round(profile.ascent, 2),
        descent: round(profile.descent, 2),
        unit: 'm',
        datum: ELEVATION_DATUM,
      };
    });
  });
};
