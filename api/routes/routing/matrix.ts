import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoutingCall } from '../../../services/routing/index.ts';
import type { Services } from '../../../services/index.ts';
import { errorResponses } from '../../../schemas/common.ts';
import {
  ISOCHRONE_MODES, MATRIX_BODY_LIMIT_BYTES, MAX_MATRIX_LOCATIONS, MatrixBody, MatrixResponse, ROUTING_ERRORS,
} from '../../../schemas/routing-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkPairs } from '../../params/routing/locations.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';

/**
 * POST /matrix: durations and distances between up to ten origins and ten destinations. Behind
 * the MATRIX_ENABLED flag: when it is off the route is not registered, so the path answers the
 * same 404 as any path we do not serve (volume 3).
 */
export const matrixRoute: FastifyPluginAsyncTypebox = async (app) => {
  if (!app.config.matrixEnabled) return;
  app.post('/matrix', {
    bodyLimit: MATRIX_BODY_LIMIT_BYTES,
    schema: {
      tags: ['routing'],
      summary: 'Travel times and distances between points',
      description: `JSON body: origins and destinations ([lng, lat] pairs, 1 to ${MAX_MATRIX_LOCATIONS} each), mode (auto, car, bicycle, pedestrian, `
        + 'truck), avoid (array), use_highways, use_hills and the truck fields of /route. durations (seconds) and distances (metres), '
        + 'row-major: one row per origin, one column per destination; 0 on a shared point, never null. 422 when any pair is unreachable '
        + 'or its route is longer than the deployment\'s road-distance ceiling (MATRIX_MAX_KM).',
      body: MatrixBody,
      response: { 200: MatrixResponse, ...errorResponses(ROUTING_ERRORS, 400, 422, 502, 503) },
    },
  }, async (request, reply) => withRoutingCall(request, reply, (call) => matrixAnswer(app.services, request.body, call)));
};

/** The answer of POST /matrix for a validated body: every front door's. */
export function matrixAnswer(services: Services, body: MatrixBody, call: RoutingCall): ReturnType<Services['routing']['matrix']> {
  if (body.origins.length > MAX_MATRIX_LOCATIONS || body.destinations.length > MAX_MATRIX_LOCATIONS) {
    throw errors.badRequest(`at most ${MAX_MATRIX_LOCATIONS} origins and ${MAX_MATRIX_LOCATIONS} destinations`, 'too_many_locations');
  }
  const mode = valueOrThrow(checkMode(body.mode, ISOCHRONE_MODES));
  const origins = valueOrThrow(checkPairs('origins', body.origins));
  const destinations = valueOrThrow(checkPairs('destinations', body.destinations));
  const options = valueOrThrow(checkRoadOptions(mode, body));
  return services.routing.matrix({ origins, destinations }, options, call);
}
