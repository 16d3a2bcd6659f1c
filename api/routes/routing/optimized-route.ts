import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoutingCall } from '../../../services/routing/index.ts';
import type { Services } from '../../../services/index.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ROUTING_ERRORS } from '../../../schemas/routing-api.ts';
import {
  MAX_OPTIMIZED_STOPS, OPTIMIZED_ROUTE_BODY_LIMIT_BYTES, OPTIMIZED_ROUTE_MODES, OptimizedRouteBody, OptimizedRouteResponse,
} from '../../../schemas/routing-optimized-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkStopEnds, checkStops } from '../../params/routing/optimized-route.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { optimizedRouteJson } from '../../replies/optimized-route-json.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';

/** POST /optimized-route: the least-duration order of up to 50 stops for one vehicle, and its route. */
export const optimizedRouteHandler: FastifyPluginAsyncTypebox = async (app) => {
  app.post('/optimized-route', {
    bodyLimit: OPTIMIZED_ROUTE_BODY_LIMIT_BYTES,
    schema: {
      tags: ['routing'],
      summary: 'The best order to visit stops, and its route',
      description: `JSON body: stops (2 to ${MAX_OPTIMIZED_STOPS}, each [lng, lat] or {"lng": n, "lat": n}), start (first: stops[0], the default; `
        + 'or any), end (last: the last stop, the default; first: back to stops[0], a round trip that needs start first; or any), and '
        + 'mode, avoid, use_highways, use_hills and the truck fields as POST /matrix takes them. The order minimises the travel time '
        + 'between the stops (exact up to 12 stops, a deterministic heuristic above). Answers order (indices into stops), the /route '
        + 'members for the whole route (distance and duration the sums of the legs\'), and one leg per consecutive pair with its own '
        + 'line. A stop reached more than 50 m away gives ENDPOINT_RELOCATED naming it (stops[i]). 422 when a stop has no road or no '
        + 'order can connect the stops.',
      body: OptimizedRouteBody,
      response: { 200: OptimizedRouteResponse, ...errorResponses(ROUTING_ERRORS, 400, 422, 502, 503) },
    },
  }, async (request, reply) => {
    const answer = await withRoutingCall(request, reply, (call) => optimizedRouteAnswer(app.services, request.body, call));
    // Bytes skip the response serializer; OptimizedRouteResponse documents them.
    return Buffer.isBuffer(answer) ? reply.type('application/json; charset=utf-8').send(answer as never) : answer;
  });
};

/** The answer of POST /optimized-route for a validated body (JSON bytes, or the no-route body as an object): every front door's. */
export async function optimizedRouteAnswer(services: Services, body: OptimizedRouteBody, call: RoutingCall) {
  if (body.stops.length > MAX_OPTIMIZED_STOPS) throw errors.badRequest(`at most ${MAX_OPTIMIZED_STOPS} stops`, 'too_many_locations');
  const mode = valueOrThrow(checkMode(body.mode, OPTIMIZED_ROUTE_MODES));
  const stops = valueOrThrow(checkStops(body.stops));
  const ends = valueOrThrow(checkStopEnds(body));
  const options = valueOrThrow(checkRoadOptions(mode, body));
  const answer = await services.routing.optimizedRoute(stops, ends, options, call);
  return 'body' in answer ? answer.body : optimizedRouteJson(answer.optimized);
}
