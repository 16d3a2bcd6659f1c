/**
 * The Valhalla road backend (ROUTING_BACKEND=valhalla): requests mapped by engines/valhalla,
 * sent by the HTTP client of io/valhalla, failures answered as valhalla-answer.ts says.
 */
import { orderStops } from '../../engines/routing/stop-order/solve.ts';
import { ValhallaFailure } from '../../engines/valhalla/failure.ts';
import { valhallaIsochrone } from '../../engines/valhalla/isochrone.ts';
import { valhallaMatch } from '../../engines/valhalla/match.ts';
import { matrixReply, valhallaMatrix } from '../../engines/valhalla/matrix.ts';
import { valhallaOptimizedRoute } from '../../engines/valhalla/optimized-route.ts';
import { valhallaRoute } from '../../engines/valhalla/route.ts';
import type { ValhallaClient } from '../../engines/valhalla/call.ts';
import { errors } from '../../lib/errors.ts';
import type { RoadBackend } from './road-backend.ts';
import { throughValhalla } from './valhalla-answer.ts';

const isochroneFailed = () => errors.routingFailed('isochrone failed');

export function valhallaBackend(valhalla: ValhallaClient, matrixMaxMetres: number): RoadBackend {
  return {
    // Valhalla's route has no per-edge truck check of ours: no truck member (README "Valhalla backend").
    route: (ends, options, call, finish) => throughValhalla(call.log, () => errors.routingFailed(), async () =>
      finish({ route: await valhallaRoute(valhalla, ends.from, ends.to, options), truck: null })),
    matrix: (points, options, call) => throughValhalla(call.log, () => errors.routingFailed(), async () => {
      const answer = matrixReply(await valhallaMatrix(valhalla, points.origins, points.destinations, options), matrixMaxMetres);
      if (!answer) throw errors.noRoute();
      return answer;
    }),
    isochrone: (origin, bandsMinutes, options, call) => throughValhalla(call.log, isochroneFailed,
      () => valhallaIsochrone(valhalla, origin, bandsMinutes, options), isochroneFailed),
    match: ({ mode, fixes, options }, call) => throughValhalla(call.log, () => errors.routingFailed('map matching failed'), async () => ({
      body: await valhallaMatch(valhalla, {
        points: fixes.map(({ lng, lat, time, accuracy }) => ({ lng, lat, ...(time === null ? {} : { time }), ...(accuracy === null ? {} : { accuracy }) })),
        mode, ...options, options: { mode, costs: {} },
      }),
    })),
    optimizedRoute: (stops, ends, options, call) => throughValhalla(call.log, () => errors.routingFailed('stop ordering failed'), async () => ({
      body: await valhallaOptimizedRoute(valhalla, { stops: stops.map(([lng, lat]) => ({ lng, lat })), ...ends, mode: options.mode, options }, (durations, wanted) => {
        const order = orderStops(durations, wanted);
        if (!order) throw new ValhallaFailure('no_route', 'no order of the stops connects them', {});
        return order;
      }),
    })),
  };
}
