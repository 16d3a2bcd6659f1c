import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../../schemas/common.ts';
import { ROUTE_MODES, ROUTING_ERRORS, RoutePolylineResponse, RouteQuery, RouteResponse } from '../../../schemas/routing-api.ts';
import { TransitRouteResponse } from '../../../schemas/transit-route-api.ts';
import type { RoutingCall } from '../../../services/routing/index.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkRouteEnds } from '../../params/routing/locations.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { checkTransitQuery } from '../../params/routing/transit.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';
import { closureWarnings, routeReply } from '../../replies/routing.ts';

export const RouteAnswerSchema = Type.Union([RouteResponse, RoutePolylineResponse, TransitRouteResponse]);


/** GET /route: the least-cost road route between two points, with relocation, closure and truck findings. */
export const routeHandler: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/route', {
    schema: {
      tags: ['routing'],
      summary: 'A route between two points',
      description: 'Road routing on the enabled road graph for auto (car), truck, bicycle and pedestrian: distance, duration and the '
        + 'GeoJSON line (six decimals, not simplified). avoid and use_* are preferences; truck dimensions, weights and hazmat are hard limits. '
        + 'Ends snap to the nearest road the mode may use; more than 50 m away gives ENDPOINT_RELOCATED. Closures within 250 m from the '
        + 'provincial snapshots give CLOSURE_IN_FORCE_NEAR_ROUTE / CLOSURE_SCHEDULED_NEAR_ROUTE. mode=transit (depart_at required) '
        + 'answers scheduled journeys of the routable agency (TRANSIT_ROUTING_FEED) with legs, transfers and Pareto alternatives. '
        + 'geometry_format=polyline6 (road modes) gives the same line as an encoded polyline string at precision 6.',
      querystring: RouteQuery,
      response: { 200: RouteAnswerSchema, ...errorResponses(ROUTING_ERRORS, 400, 422, 502, 503) },
    },
  }, async (request, reply) => {
    const json = await withRoutingCall(request, reply, (call) => routeJsonOf(app, request.query, call));
    // Bytes skip the response serializer; RouteResponse and TransitRouteResponse document them (api/replies/route-json.ts).
    return reply.type('application/json; charset=utf-8').send(json as never);
  });
};

/** The JSON of GET /route for a validated query (road modes as bytes, mode=transit as text): every front door's. */
export async function routeJsonOf(app: FastifyInstance, query: RouteQuery, call: RoutingCall): Promise<Buffer | string> {
  const mode = valueOrThrow(checkMode(query.mode, ROUTE_MODES));
  const ends = valueOrThrow(checkRouteEnds(query.from, query.to));
  const routing = app.services.routing;
  if (mode === 'transit') {
    if (query.geometry_format !== undefined) throw errors.badRequest('geometry_format applies only to road modes', 'invalid_route_option');
    const { departAt } = valueOrThrow(checkTransitQuery(query));
    if ((query as Record<string, unknown>).arrive_by !== undefined) {
      throw errors.badRequest('arrive_by is not supported: give depart_at', 'invalid_route_option');
    }
    const { body, closures } = await routing.transitRoute(ends, departAt, { ...call, closureSnapshots: app.closureSnapshots });
    const warnings = closures ? closureWarnings(closures) : [];
    return JSON.stringify(warnings.length > 0 ? { ...body, warnings } : body);
  }
  if (query.depart_at !== undefined) throw errors.badRequest('depart_at applies only to mode=transit', 'invalid_route_option');
  const options = valueOrThrow(checkRoadOptions(mode, { ...query, avoid: query.avoid?.split(',') }));
  const routeCall = { ...call, closureSnapshots: app.closureSnapshots };
  return routing.route(ends, options, routeCall, ({ route, truck }, closures) => routeReply(route, closures, truck, query.geometry_format));
}
