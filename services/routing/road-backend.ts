/**
 * One interface over the two road-routing backends a deployment may run (ROUTING_BACKEND): the
 * built-in engine over the enabled roads release (worker pool), or a Valhalla server. The facade
 * picks one at start-up; nothing after that asks which it is. Each method takes checked input
 * and returns the answer or throws a Refusal (the endpoint's 502/422/503 already mapped).
 */
import type { CostOptions } from '../../engines/routing/cost-model.ts';
import type { IsochroneBand } from '../../engines/routing/isochrone.ts';
import type { TraceFix, TraceMatch } from '../../engines/routing/match/match-trace.ts';
import type { Mode } from '../../engines/routing/modes.ts';
import type { PlannedRoute } from '../../engines/routing/plan-route.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { OptimizedRoute } from '../../engines/routing/stop-order/optimized-route.ts';
import type { StopEnds } from '../../engines/routing/stop-order/problem.ts';
import type { TruckCompliance } from '../../engines/routing/truck-validation.ts';
import type { ValhallaMatchAnswer } from '../../engines/valhalla/match.ts';
import type { ValhallaOptimizedAnswer } from '../../engines/valhalla/optimized-route.ts';
import type { RoutingCall } from './call.ts';

export interface RoadOptions {
  mode: Mode;
  costs: CostOptions;
}

/** What GET /route's answer is written from: the built-in engine's planned route, or Valhalla's. */
export type RouteFindings = Pick<PlannedRoute, 'metres' | 'seconds' | 'line' | 'relocations' | 'relocationChecked'>;

/** A route and, from the built-in engine for mode truck, its truck check (Valhalla has none of ours). */
export interface RoadRoute {
  route: RouteFindings;
  truck: TruckCompliance | null;
}

export interface MatrixAnswer {
  durations: number[][];
  distances: number[][];
}

export interface MatchRequest {
  mode: Mode;
  fixes: readonly TraceFix[];
  options: { searchRadius: number; gpsAccuracy: number; breakageDistance: number };
}

/** The built-in engine's match (written as bytes by the API), or Valhalla's, already the response body. */
export type MatchAnswer = { matched: TraceMatch } | { body: ValhallaMatchAnswer };

/** The built-in engine's optimized route (written as bytes by the API), or Valhalla's, already the response body. */
export type OptimizedRouteAnswer = { optimized: OptimizedRoute } | { body: ValhallaOptimizedAnswer };

export interface RoadBackend {
  /** Resolves after `finish` ran on the route (inside the backend's failure mapping). */
  route<T>(ends: { from: LngLat; to: LngLat }, options: RoadOptions, call: RoutingCall, finish: (found: RoadRoute) => Promise<T>): Promise<T>;
  matrix(points: { origins: LngLat[]; destinations: LngLat[] }, options: RoadOptions, call: RoutingCall): Promise<MatrixAnswer>;
  /** One polygon set per band of `bandsMinutes` (largest first). */
  isochrone(origin: LngLat, bandsMinutes: number[], options: RoadOptions, call: RoutingCall): Promise<IsochroneBand[]>;
  match(request: MatchRequest, call: RoutingCall): Promise<MatchAnswer>;
  optimizedRoute(stops: LngLat[], ends: StopEnds, options: RoadOptions, call: RoutingCall): Promise<OptimizedRouteAnswer>;
}
