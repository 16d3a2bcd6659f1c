/**
 * The requests of the Valhalla overhead benchmark, drawn exactly as bench/routing/match.ts and
 * bench/routing/optimized-route.ts draw theirs (those scripts do their drawing inline, so the few
 * lines are repeated here over the same exported generators): 200-fix traces along seeded routes
 * (test/routing/match-traces.ts, noise 10 m) and sets of 25 stops (test/routing/stop-order-vancouver.ts,
 * seed × 100,003 + i), on the Vancouver roads network.
 */
import { costModel } from '../../engines/routing/cost-model.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { randomRoutes, sampleTrace } from '../../test/support/routing/match-traces.ts';
import { vancouverStops } from '../../test/support/routing/stop-order-vancouver.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

export const TRACE_POINTS = 200;
export const TRACE_NOISE_METRES = 10;
export const STOPS = 25;

export interface MatchBody {
  points: { lng: number; lat: number; time: number; accuracy: number }[];
  gps_accuracy: number;
}

/** Up to `count` traces of 200 fixes (a route too short for 200 fixes is skipped, as match.ts does). */
export function drawTraces(network: RoadNetwork, count: number, seed: number): MatchBody[] {
  const rnd = random(seed);
  const model = costModel(network.graph, 'auto');
  const routes = randomRoutes(network, model, rnd, count, [-123.24, 49.2, -123.03, 49.3], 3000, 16000);
  const bodies: MatchBody[] = [];
  for (const route of routes) {
    const interval = Math.max(1, Math.min(30, Math.floor(route.seconds / TRACE_POINTS)));
    const fixes = sampleTrace(model, route, interval, TRACE_NOISE_METRES, rnd).slice(0, TRACE_POINTS);
    if (fixes.length < TRACE_POINTS) continue;
    bodies.push({
      points: fixes.map((f) => ({ lng: f.lng, lat: f.lat, time: f.time, accuracy: TRACE_NOISE_METRES })),
      gps_accuracy: TRACE_NOISE_METRES,
    });
  }
  return bodies;
}

/** `count` sets of 25 stops (start first, end last: the ends Valhalla's /optimized_route keeps). */
export function drawStopSets(network: RoadNetwork, count: number, seed: number): LngLat[][] {
  return Array.from({ length: count }, (_, i) => vancouverStops(network, STOPS, seed * 100_003 + i));
}

/** The key of a request's positions, as the stand-in reads them from Valhalla's `shape` / `locations`. */
export const positionsKey = (positions: readonly { lng: number; lat: number }[]): string =>
  positions.map((p) => `${p.lng.toFixed(6)},${p.lat.toFixed(6)}`).join(';');
