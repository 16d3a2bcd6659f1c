import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { closuresNearLine, type ClosuresNearRoute } from '../../../engines/road-events/closures-near-route.ts';
import { RouteLine } from '../../../engines/road-events/route-line.ts';
import { lineDegrees } from '../../../engines/routing/route-geometry.ts';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import type { TruckCompliance } from '../../../engines/routing/truck-validation.ts';
import { valhallaRoute } from '../../../engines/valhalla/route.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ROADS_KIND } from '../../../schemas/roads-release.ts';
import { ROUTE_MODES, ROUTING_ERRORS, RouteQuery, RouteResponse } from '../../../schemas/routing-api.ts';
import { TransitRouteResponse } from '../../../schemas/transit-route-api.ts';
import { Refusal, errors } from '../../../lib/errors.ts';
import type { TransitData } from '../../../engines/transit/data.ts';
import { departureInstant } from '../../../engines/transit/journeys/local-time.ts';
import { planJourneys } from '../../../engines/transit/journeys/plan.ts';
import { transitRouteJson } from '../../../engines/transit/journeys/response.ts';
import { ReleaseUnavailableError } from '../../../releases/unavailable.ts';
import { TRANSIT_KIND } from '../../../schemas/transit-release.ts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkRouteEnds } from '../../params/routing/locations.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { checkTransitQuery } from '../../params/routing/transit.ts';
import { closureWarnings, guardEngine, routeReply, type RouteFindings } from '../../replies/routing.ts';
import { routingBackend, throughValhalla } from '../../routing/backend.ts';
import { onRoutingWorker } from '../../routing/worker-pool.ts';

/** GET /route: the least-cost road route between two points, with relocation, closure and truck findings. */
export const routeRoute: FastifyPluginAsyncTypebox = async (app) => {
  const valhalla = routingBackend(app);
  app.get('/route', {
    schema: {
      tags: ['routing'],
      summary: 'A route between two points',
      description: 'Road routing on the enabled road graph for auto (car), truck, bicycle and pedestrian: distance, duration and the '
        + 'GeoJSON line (six decimals, not simplified). avoid and use_* are preferences; truck dimensions, weights and hazmat are hard limits. '
        + 'Ends snap to the nearest road the mode may use; more than 50 m away gives ENDPOINT_RELOCATED. Closures within 250 m from the '
        + 'provincial snapshots give CLOSURE_IN_FORCE_NEAR_ROUTE / CLOSURE_SCHEDULED_NEAR_ROUTE. mode=transit (depart_at required) '
        + 'answers scheduled journeys of the routable agency (TRANSIT_ROUTING_FEED) with legs, transfers and Pareto alternatives.',
      querystring: RouteQuery,
      response: { 200: Type.Union([RouteResponse, TransitRouteResponse]), ...errorResponses(ROUTING_ERRORS, 400, 422, 502, 503) },
    },
  }, async (request, reply) => {
    const query = request.query;
    const mode = valueOrThrow(checkMode(query.mode, ROUTE_MODES));
    const { from, to } = valueOrThrow(checkRouteEnds(query.from, query.to));
    if (mode === 'transit') {
      const { departAt } = valueOrThrow(checkTransitQuery(query));
      if ((request.query as Record<string, unknown>).arrive_by !== undefined) {
        throw errors.badRequest('arrive_by is not supported: give depart_at', 'invalid_route_option');
      }
      const body = await transitRoute(app, request, from, to, departAt);
      // Rides are drawn through their stops: a closure within 250 m of that line is near the journey.
      const closures = await closuresNear(app, request, Float64Array.from(body.geometry.coordinates.flat()));
      const warnings = closures ? closureWarnings(closures) : [];
      return reply.type('application/json; charset=utf-8').send(JSON.stringify(warnings.length > 0 ? { ...body, warnings } : body) as never);
    }
    if (query.depart_at !== undefined) throw errors.badRequest('depart_at applies only to mode=transit', 'invalid_route_option');
    const options = valueOrThrow(checkRoadOptions(mode, { ...query, avoid: query.avoid?.split(',') }));
    const answer = async (route: RouteFindings, truck: TruckCompliance | null) => {
      const closures = await closuresNear(app, request, lineDegrees(route.line));
      // Bytes skip the response serializer; RouteResponse documents them (api/replies/route-json.ts).
      return reply.type('application/json; charset=utf-8').send(routeReply(route, closures, truck) as never);
    };
    // Valhalla's route has no per-edge truck check of ours: no truck member (README "Valhalla backend").
    if (valhalla) return throughValhalla(request, () => errors.routingFailed(), async () => answer(await valhallaRoute(valhalla, from, to, options), null));
    return app.releases.use(ROADS_KIND, (network: RoadNetwork) => guardEngine(request, () => errors.routingFailed(), async () => {
      const planned = await onRoutingWorker(app, request, reply, network, 'route', { mode: options.mode, costs: options.costs, from, to });
      if (!planned) throw errors.noRoute();
      return answer(planned.route, planned.truck);
    }));
  });
};

/** Road closures near a line ([lng, lat] interleaved) from the stored snapshots; null (no warnings) when they cannot be read. */
function closuresNear(app: FastifyInstance, request: FastifyRequest, lngLat: Float64Array): Promise<ClosuresNearRoute | null> {
  return app.closureSnapshots.current()
    .then((snapshot) => closuresNearLine(snapshot, new RouteLine(lngLat), { now: new Date(app.now()) }))
    .catch((err: unknown) => {
      request.log.warn({ err }, 'route: closure snapshots unreadable; answered without closure warnings');
      return null;
    });
}

/**
 * mode=transit: RAPTOR over the routable feed of the enabled transit release (TRANSIT_ROUTING_FEED,
 * else its first feed), walking along the enabled road graph's streets when there is one. No transit release, or one without that feed: 503 routing temporarily
 * unavailable; no journey: 422; an unexpected engine fault: 502, never a 500.
 */
async function transitRoute(app: FastifyInstance, request: FastifyRequest, from: [number, number], to: [number, number], departAtText: string) {
  try {
    return await app.releases.use(TRANSIT_KIND, async (data: TransitData) => {
      const feedId = app.config.transitRoutingFeed ?? data.feeds[0]?.feedId;
      const feed = data.feeds.find((f) => f.feedId === feedId);
      if (!feed) {
        request.log.warn({ feedId, release: data.releaseId }, 'route: the enabled transit release lacks the routable feed');
        throw errors.serviceUnavailable('routing');
      }
      const departAt = departureInstant(departAtText, feed.timezone);
      const answer = async (roads: RoadNetwork | null) => {
        const journeys = planJourneys(data, feed.feedId, { from, to, departAt }, roads);
        if (journeys.length === 0) throw errors.noRoute();
        return transitRouteJson(journeys, departAt);
      };
      // Walks follow the streets while a roads release is enabled, else straight lines.
      return app.releases.use(ROADS_KIND, answer).catch((err: unknown) => {
        if (err instanceof ReleaseUnavailableError) return answer(null);
        throw err;
      });
    });
  } catch (err) {
    if (err instanceof ReleaseUnavailableError) throw errors.serviceUnavailable('routing');
    if (err instanceof Refusal) throw err;
    request.log.error({ err }, 'route: transit routing failed');
    throw errors.routingFailed();
  }
}
