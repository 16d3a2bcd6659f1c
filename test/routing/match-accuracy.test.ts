/**
 * Map-matching accuracy on synthetic traces of the Vancouver graph (pelias-vancouver_canada.osm.pbf,
 * © OpenStreetMap contributors, ODbL): routes between seeded random points, a fix every 1 to 30 s
 * at the route's own speed, Gaussian noise of 5 to 30 m per axis (gps_accuracy set to the noise;
 * search_radius 3 sigma, at least 50 m). Per cell of the grid: the share of fixes on the true
 * directed edge; the share on an edge of the true path (right road and direction, wherever the
 * along-road noise put the fix); the same "true edge" share of an oracle that projects each fix
 * onto the true path (no matcher that reports projections does better: along-road noise moves a
 * fix near an intersection onto the neighbouring edge); and the matched length against the route.
 * Gates at 10 m / 5 s; the other cells are printed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel, type CostModel } from '../../engines/routing/cost-model.ts';
import { matchTrace } from '../../engines/routing/match/match-trace.ts';
import type { PlannedRoute } from '../../engines/routing/plan-route.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { nearestRouteEdge, randomRoutes, sampleTrace, type SyntheticFix } from '../support/routing/match-traces.ts';
import { openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

const NOISES = [5, 10, 20, 30];
const INTERVALS = [1, 5, 15, 30];
const ROUTES = 10;
/** A fix within this of its true position counts as on the true edge (a fix at a node belongs to both edges). */
const SAME_PLACE_METRES = 3;

let vancouver: VancouverGraph;
let network: RoadNetwork;
let model: CostModel;
let routes: PlannedRoute[];

beforeAll(async () => {
  vancouver = await openVancouverGraph();
  network = { releaseId: 'test', graph: vancouver.graph, snap: SnapIndex.build(vancouver.graph), hierarchy: null };
  model = costModel(vancouver.graph, 'auto');
  routes = randomRoutes(network, model, random(2009), ROUTES, [-123.24, 49.2, -123.03, 49.3], 2000, 6000);
}, 120_000);

afterAll(async () => {
  await vancouver?.close();
});

interface Cell {
  noise: number;
  interval: number;
  fixes: number;
  trueEdge: number;
  truePath: number;
  oracle: number;
  unmatched: number;
  breaks: number;
  /** |matched − route| / route, per trace. */
  lengthErrors: number[];
  ms: number;
}

function measure(noise: number, interval: number): Cell {
  const rnd = random(noise * 100 + interval);
  const cell: Cell = { noise, interval, fixes: 0, trueEdge: 0, truePath: 0, oracle: 0, unmatched: 0, breaks: 0, lengthErrors: [], ms: 0 };
  const onEdge = (edge: number, lng: number, lat: number, f: SyntheticFix) => edge === f.edge || haversineMetres(lng, lat, f.truth[0], f.truth[1]) <= SAME_PLACE_METRES;
  for (const route of routes) {
    const fixes = sampleTrace(model, route, interval, noise, rnd);
    const started = performance.now();
    const match = matchTrace(network, model, fixes.map((f) => ({ lng: f.lng, lat: f.lat, time: f.time, accuracy: null })), {
      gpsAccuracy: noise, searchRadius: Math.min(200, Math.max(50, 3 * noise)),
    });
    cell.ms += performance.now() - started;
    const pathEdges = new Set(route.path.edges);
    fixes.forEach((f, i) => {
      cell.fixes++;
      const oracle = nearestRouteEdge(model, route, f);
      if (onEdge(oracle.edge, oracle.lng, oracle.lat, f)) cell.oracle++;
      const p = match.points[i];
      if (!p) {
        cell.unmatched++;
        return;
      }
      if (onEdge(p.edge, p.lng, p.lat, f)) cell.trueEdge++;
      if (pathEdges.has(p.edge)) cell.truePath++;
    });
    cell.breaks += match.breaks.length;
    const metres = match.segments.reduce((s, x) => s + x.metres, 0);
    cell.lengthErrors.push(Math.abs(metres - route.metres) / route.metres);
  }
  return cell;
}

const pct = (x: number) => `${(100 * x).toFixed(1)} %`;

describe('map matching accuracy on synthetic Vancouver traces', () => {
  it(`meets the gates at 10 m noise and a fix every 5 s, and reports the ${NOISES.length} × ${INTERVALS.length} grid`, () => {
    expect(routes.length).toBe(ROUTES);
    const cells = NOISES.flatMap((noise) => INTERVALS.map((interval) => measure(noise, interval)));
    const rows = cells.map((c) => ({
      'noise m': c.noise,
      'every s': c.interval,
      fixes: c.fixes,
      'true edge': pct(c.trueEdge / c.fixes),
      'oracle true edge': pct(c.oracle / c.fixes),
      'true path': pct(c.truePath / c.fixes),
      unmatched: c.unmatched,
      breaks: c.breaks,
      'length err max': pct(Math.max(...c.lengthErrors)),
      'length err mean': pct(c.lengthErrors.reduce((s, x) => s + x, 0) / c.lengthErrors.length),
      'ms/trace': Math.round(c.ms / ROUTES),
    }));
    console.log(`map matching, ${ROUTES} routes of ${routes.map((r) => (r.metres / 1000).toFixed(1)).join(', ')} km`);
    console.table(rows);
    const gate = cells.find((c) => c.noise === 10 && c.interval === 5)!;
    expect(gate.unmatched).toBe(0);
    expect(gate.breaks).toBe(0);
    expect(gate.truePath / gate.fixes).toBeGreaterThanOrEqual(0.95);
    // The true-edge share is bounded by the oracle's (along-road noise); the matcher stays within 2 points of it.
    expect(gate.trueEdge / gate.fixes).toBeGreaterThanOrEqual(gate.oracle / gate.fixes - 0.02);
    for (const error of gate.lengthErrors) expect(error).toBeLessThanOrEqual(0.03);
  });
});
