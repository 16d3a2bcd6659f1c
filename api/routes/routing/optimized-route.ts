import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RoadNetwork } from '../../../engines/routing/release.ts';
import type { OptimizedRoute } from '../../../engines/routing/stop-order/optimized-route.ts';
import { errorResponses } from '../../../schemas/common.ts';
import { ROADS_KIND } from '../../../schemas/roads-release.ts';
import { ROUTING_ERRORS, type RouteWarning } from '../../../schemas/routing-api.ts';
import {
  MAX_OPTIMIZED_STOPS, OPTIMIZED_ROUTE_BODY_LIMIT_BYTES, OPTIMIZED_ROUTE_MODES, OptimizedRouteBody, OptimizedRouteResponse,
} from '../../../schemas/routing-optimized-api.ts';
import { errors } from '../../../lib/errors.ts';
import { valueOrThrow } from '../../../lib/checked.ts';
import { checkStopEnds, checkStops } from '../../params/routing/optimized-route.ts';
import { checkMode, checkRoadOptions } from '../../params/routing/options.ts';
import { writeMicroDegrees } from '../../replies/route-json.ts';
import { guardEngine } from '../../replies/routing.ts';
import { routingBackend, throughValhalla } from '../../routing/backend.ts';
import { onRoutingWorker } from '../../routing/worker-pool.ts';
import { orderStops } from '../../../engines/routing/stop-order/solve.ts';
import { ValhallaFailure } from '../../../engines/valhalla/failure.ts';
import { valhallaOptimizedRoute } from '../../../engines/valhalla/optimized-route.ts';

/** Longest coordinate pair text: `[-180.123456,-90.123456],`. */
const POSITION_BYTES = 26;

/** The answer's JSON bytes: members as OptimizedRouteResponse documents them, lines printed from micro-degrees (route-json.ts). */
function optimizedRouteJson(route: OptimizedRoute): Buffer {
  const legs = route.legs.map((leg) => ({ ...leg, distanceMeters: Math.round(leg.metres), durationSeconds: Math.round(leg.seconds) }));
  const distance = legs.reduce((sum, leg) => sum + leg.distanceMeters, 0);
  const duration = legs.reduce((sum, leg) => sum + leg.durationSeconds, 0);
  const warnings = route.relocations.map(({ stop, metres }): RouteWarning => ({
    code: 'ENDPOINT_RELOCATED',
    where: `stops[${stop}]`,
    message: `the route reaches stops[${stop}] ${Math.round(metres)} m from the requested point, at the nearest usable road; treat the stop as unreached`,
  }));
  const texts: (string | Int32Array)[] = [`{"order":${JSON.stringify(route.order)},"distanceMeters":${distance},"durationSeconds":${duration},"geometry":`, route.line, ',"legs":['];
  legs.forEach((leg, i) => {
    texts.push(`${i > 0 ? ',' : ''}{"from":${leg.from},"to":${leg.to},"distanceMeters":${leg.distanceMeters},"durationSeconds":${leg.durationSeconds},"geometry":`, leg.line, '}');
  });
  texts.push(`]${warnings.length > 0 ? `,"warnings":${JSON.stringify(warnings)}` : ''}}`);
  let size = 0;
  for (const t of texts) size += typeof t === 'string' ? Buffer.byteLength(t) : 40 + (t.length / 2) * POSITION_BYTES;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (const t of texts) {
    if (typeof t === 'string') {
      at += out.write(t, at, 'utf8');
      continue;
    }
    at += out.write('{"type":"LineString","coordinates":[', at, 'latin1');
    for (let i = 0; i < t.length; i += 2) {
      if (i > 0) out[at++] = 44; // ,
      out[at++] = 91; // [
      at = writeMicroDegrees(out, at, t[i]!);
      out[at++] = 44;
      at = writeMicroDegrees(out, at, t[i + 1]!);
      out[at++] = 93; // ]
    }
    at += out.write(']}', at, 'latin1');
  }
  return out.subarray(0, at);
}

/** POST /optimized-route: the least-duration order of up to 50 stops for one vehicle, and its route. */
export const optimizedRouteRoute: FastifyPluginAsyncTypebox = async (app) => {
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
    const body = request.body;
    if (body.stops.length > MAX_OPTIMIZED_STOPS) throw errors.badRequest(`at most ${MAX_OPTIMIZED_STOPS} stops`, 'too_many_locations');
    const mode = valueOrThrow(checkMode(body.mode, OPTIMIZED_ROUTE_MODES));
    const stops = valueOrThrow(checkStops(body.stops));
    const ends = valueOrThrow(checkStopEnds(body));
    const options = valueOrThrow(checkRoadOptions(mode, body));
    const valhalla = routingBackend(app);
    if (valhalla) {
      return throughValhalla(request, () => errors.routingFailed('stop ordering failed'), () => valhallaOptimizedRoute(
        valhalla, { stops: stops.map(([lng, lat]) => ({ lng, lat })), ...ends, mode: options.mode, options }, (durations, wanted) => {
          const order = orderStops(durations, wanted);
          if (!order) throw new ValhallaFailure('no_route', 'no order of the stops connects them', {});
          return order;
        },
      ));
    }
    return app.releases.use(ROADS_KIND, (network: RoadNetwork) => guardEngine(request, () => errors.routingFailed('stop ordering failed'), async () => {
      const outcome = await onRoutingWorker(app, request, reply, network, 'optimized-route', { mode: options.mode, costs: options.costs, stops, ends });
      if (!outcome.ok) throw errors.noRoute();
      // Bytes skip the response serializer; OptimizedRouteResponse documents them.
      return reply.type('application/json; charset=utf-8').send(optimizedRouteJson(outcome.route) as never);
    }));
  });
};
