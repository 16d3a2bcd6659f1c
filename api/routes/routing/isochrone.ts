import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoutingCall } from '../../../services/routing/index.ts';
import type { Services } from '../../../services/index.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ISOCHRONE_MODES, IsochroneQuery, IsochroneResponse, ROUTING_ERRORS } from '../../../schemas/routing-api.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkIsochroneQuery } from '../../params/routing/locations.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { withRoutingCall } from '../../replies/routing-call.ts';
import { isochroneReply } from '../../replies/routing.ts';

/** GET /isochrone: the area reachable within up to four time bands, one polygon feature per band. */
export const isochroneRoute: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/isochrone', {
    schema: {
      tags: ['routing'],
      summary: 'Areas reachable within time bands',
      description: 'lon, lat and minutes (comma list, at most four bands of 120 minutes or less; fractions accepted; zero, negative and '
        + 'non-finite values dropped) for auto (car), truck, bicycle or pedestrian, with the options of /route. application/geo+json '
        + 'FeatureCollection, one Polygon or MultiPolygon per band, largest band first; match on properties.contour. With avoid=ferries a '
        + 'band is the area reachable without any ferry.',
      querystring: IsochroneQuery,
      response: { 200: IsochroneResponse, ...errorResponses({ ...ROUTING_ERRORS, 502: 'the engine failed (`isochrone failed`, code routing_failed)' }, 400, 502, 503) },
    },
  }, async (request, reply) => {
    const answer = await withRoutingCall(request, reply, (call) => isochroneAnswer(app.services, request.query, call));
    reply.type('application/geo+json');
    return answer;
  });
};

/** The answer of GET /isochrone for a validated query: every front door's. */
export async function isochroneAnswer(services: Services, query: IsochroneQuery, call: RoutingCall): Promise<IsochroneResponse> {
  const mode = valueOrThrow(checkMode(query.mode, ISOCHRONE_MODES));
  const { origin, minutes } = valueOrThrow(checkIsochroneQuery(query.lon, query.lat, query.minutes));
  const options = valueOrThrow(checkRoadOptions(mode, { ...query, avoid: query.avoid?.split(',') }));
  // With avoid=ferries a band is the area reachable without any ferry.
  const costs = { ...options.costs, excludeFerries: options.costs.avoidFerries, avoidFerries: false };
  const bands = [...minutes].sort((a, b) => b - a);
  const polygons = await services.routing.isochrone(origin, bands, { mode: options.mode, costs }, call);
  return isochroneReply(bands, polygons);
}
