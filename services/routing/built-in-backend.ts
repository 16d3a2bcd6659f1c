/**
 * The built-in road backend: the engine over the enabled roads release, run on the routing worker
 * pool (ROUTING_WORKERS, ROUTING_TIME_BUDGET_MS). No enabled roads release: the release store's
 * ReleaseUnavailableError, which the API answers 503.
 */
import type { RoadNetwork } from '../../engines/routing/release.ts';
import type { RoutingPool } from '../../engines/routing/workers/routing-pool.ts';
import type { RoutingResults, RoutingTasks, TaskKind } from '../../engines/routing/workers/tasks.ts';
import type { Config } from '../../lib/config.ts';
import { Refusal, errors } from '../../lib/errors.ts';
import type { ReleaseStore } from '../../releases/reader.ts';
import { ROADS_KIND } from '../../schemas/roads-release.ts';
import type { RoutingCall } from './call.ts';
import { guardBuiltIn } from './guard.ts';
import type { RoadBackend } from './road-backend.ts';
import { runOnWorker } from './worker-run.ts';

const isochroneFailed = () => errors.routingFailed('isochrone failed');

export function builtInBackend(config: Config, releases: ReleaseStore, pool: () => RoutingPool): RoadBackend {
  /** Runs one task on the enabled roads release; `then` turns its result into the answer, guarded. */
  const onRoads = <K extends TaskKind, T>(call: RoutingCall, failed: () => Refusal, kind: K, input: RoutingTasks[K], then: (result: RoutingResults[K]) => T | Promise<T>) =>
    releases.use(ROADS_KIND, (network: RoadNetwork) => guardBuiltIn(call.log, failed, async () =>
      then(await runOnWorker(pool(), config.routingTimeBudgetMs, call, network, kind, input))));
  return {
    route: (ends, options, call, finish) => onRoads(call, () => errors.routingFailed(), 'route', { mode: options.mode, costs: options.costs, ...ends }, (planned) => {
      if (!planned) throw errors.noRoute();
      return finish({ route: planned.route, truck: planned.truck });
    }),
    matrix: (points, options, call) => onRoads(call, () => errors.routingFailed(), 'matrix', {
      mode: options.mode, costs: options.costs, ...points, maxMetres: config.matrixMaxMetres,
    }, (outcome) => {
      if (!outcome.ok) throw errors.noRoute();
      return {
        durations: outcome.matrix.seconds.map((row) => row.map(Math.round)),
        distances: outcome.matrix.metres.map((row) => row.map(Math.round)),
      };
    }),
    isochrone: (origin, bandsMinutes, options, call) => onRoads(call, isochroneFailed, 'isochrone', {
      mode: options.mode, costs: options.costs, origin, bandSeconds: bandsMinutes.map((m) => m * 60),
    }, (polygons) => {
      if (!polygons) throw isochroneFailed();
      return polygons;
    }),
    match: (request, call) => onRoads(call, () => errors.routingFailed('map matching failed'), 'match', request, (matched) => {
      if (matched.segments.length === 0) throw errors.noRoute();
      return { matched };
    }),
    optimizedRoute: (stops, ends, options, call) => onRoads(call, () => errors.routingFailed('stop ordering failed'), 'optimized-route', {
      mode: options.mode, costs: options.costs, stops, ends,
    }, (outcome) => {
      if (!outcome.ok) throw errors.noRoute();
      return { optimized: outcome.route };
    }),
  };
}
