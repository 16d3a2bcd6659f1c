import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import { valhallaIsochrone } from '../../../engines/valhalla/isochrone.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ROADS_KIND } from '../../../schemas/roads-release.ts';
import { ISOCHRONE_MODES, IsochroneQuery, IsochroneResponse, ROUTING_ERRORS } from '../../../schemas/routing-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkIsochroneQuery } from '../../params/routing/locations.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { guardEngine, isochroneReply } from '../../replies/routing.ts';
import { routingBackend, throughValhalla } from '../../routing/backend.ts';
import { onRoutingWorker } from '../../routing/worker-pool.ts';

const isochroneFailed = () => errors.routingFailed('isochrone failed');

/** GET /isochrone: the area reachable within up to four time bands, one polygon feature per band. */
export const isochroneRoute: FastifyPluginAsyncTypebox = async (app) => {
  const valhalla = routingBackend(app);
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
    const query = request.query;
    const mode = valueOrThrow(checkMode(query.mode, ISOCHRONE_MODES));
    const { origin, minutes } = valueOrThrow(checkIsochroneQuery(query.lon, query.lat, query.minutes));
    const options = valueOrThrow(checkRoadOptions(mode, { ...query, avoid: query.avoid?.split(',') }));
    const costs = { ...options.costs, excludeFerries: options.costs.avoidFerries, avoidFerries: false };
    const bands = [...minutes].sort((a, b) => b - a);
    if (valhalla) {
      return throughValhalla(request, isochroneFailed, async () => {
        const polygons = await valhallaIsochrone(valhalla, origin, bands, { mode: options.mode, costs });
        reply.type('application/geo+json');
        return isochroneReply(bands, polygons);
      }, isochroneFailed);
    }
    return app.releases.use(ROADS_KIND, (network: RoadNetwork) => guardEngine(request, isochroneFailed, async () => {
      const polygons = await onRoutingWorker(app, request, reply, network, 'isochrone', { mode: options.mode, costs, origin, bandSeconds: bands.map((m) => m * 60) });
      if (!polygons) throw isochroneFailed();
      reply.type('application/geo+json');
      return isochroneReply(bands, polygons);
    }));
  });
};
