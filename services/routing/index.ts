/**
 * The routing facade: /route (road modes and mode=transit), /matrix, /isochrone, /match and
 * /optimized-route over checked input. The road backend (built-in worker pool over the enabled
 * roads release, or Valhalla per ROUTING_BACKEND) is chosen once, here; `close()` stops the
 * worker threads when the app closes.
 */
import { closuresNearLine, type ClosuresNearRoute } from '../../engines/road-events/closures-near-route.ts';
import { RouteLine } from '../../engines/road-events/route-line.ts';
import type { ClosureSnapshot } from '../../engines/road-events/closure.ts';
import { lineDegrees } from '../../engines/routing/route-geometry.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { StopEnds } from '../../engines/routing/stop-order/problem.ts';
import { RoutingPool } from '../../engines/routing/workers/routing-pool.ts';
import { valhallaClient } from '../../io/valhalla/client.ts';
import type { Refreshing } from '../../lib/refreshing.ts';
import type { ServiceDeps } from '../deps.ts';
import { builtInBackend } from './built-in-backend.ts';
import type { RoutingCall } from './call.ts';
import type { MatchRequest, RoadBackend, RoadOptions, RoadRoute } from './road-backend.ts';
import { transitJourneys } from './transit-journeys.ts';
import { valhallaBackend } from './valhalla-backend.ts';

export type { RoutingCall } from './call.ts';
export type { RouteFindings } from './road-backend.ts';

/** A /route call: closure warnings come from the API's cached snapshots (tests invalidate them). */
export interface RouteCall extends RoutingCall {
  closureSnapshots: Refreshing<ClosureSnapshot>;
}

export type RoutingService = ReturnType<typeof createRoutingService>;

export function createRoutingService({ config, releases, now }: ServiceDeps) {
  let pool: RoutingPool | null = null;
  /** The built-in road routing's worker threads (ROUTING_WORKERS, ROUTING_TIME_BUDGET_MS), started at the first task. */
  const workerPool = () => (pool ??= new RoutingPool({ threads: config.routingWorkers, budgetMs: config.routingTimeBudgetMs }));
  const roads: RoadBackend = config.routingBackend === 'valhalla'
    ? valhallaBackend(valhallaClient({ url: config.valhallaUrl, timeoutMs: config.valhallaTimeoutMs }), config.matrixMaxMetres)
    : builtInBackend(config, releases, workerPool);

  /** Road closures near a line ([lng, lat] interleaved) from the stored snapshots; null (no warnings) when they cannot be read. */
  const closuresNear = (call: RouteCall, lngLat: Float64Array): Promise<ClosuresNearRoute | null> => call.closureSnapshots.current()
    .then((snapshot) => closuresNearLine(snapshot, new RouteLine(lngLat), { now: new Date(now()) }))
    .catch((err: unknown) => {
      call.log.warn({ err }, 'route: closure snapshots unreadable; answered without closure warnings');
      return null;
    });

  return {
    workerPool,
    /** A road route; `write` turns it and the closures near it into the answer (inside the backend's failure mapping). */
    route: <T>(ends: { from: LngLat; to: LngLat }, options: RoadOptions, call: RouteCall, write: (found: RoadRoute, closures: ClosuresNearRoute | null) => T) =>
      roads.route(ends, options, call, async (found) => write(found, await closuresNear(call, lineDegrees(found.route.line)))),
    /** mode=transit: the journeys' JSON body and the closures near their line. */
    async transitRoute(ends: { from: LngLat; to: LngLat }, departAt: string, call: RouteCall) {
      const body = await transitJourneys(releases, config.transitRoutingFeed, call.log, ends.from, ends.to, departAt);
      // Rides are drawn through their stops: a closure within 250 m of that line is near the journey.
      const closures = await closuresNear(call, Float64Array.from(body.geometry.coordinates.flat()));
      return { body, closures };
    },
    matrix: (points: { origins: LngLat[]; destinations: LngLat[] }, options: RoadOptions, call: RoutingCall) => roads.matrix(points, options, call),
    isochrone: (origin: LngLat, bandsMinutes: number[], options: RoadOptions, call: RoutingCall) => roads.isochrone(origin, bandsMinutes, options, call),
    match: (request: MatchRequest, call: RoutingCall) => roads.match(request, call),
    optimizedRoute: (stops: LngLat[], ends: StopEnds, options: RoadOptions, call: RoutingCall) => roads.optimizedRoute(stops, ends, options, call),
    async close() {
      await pool?.close();
    },
  };
}
