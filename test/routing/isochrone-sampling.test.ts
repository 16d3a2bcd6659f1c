/**
 * stampReached walks each road segment once for both directions and stamps end nodes only with
 * arrivals; a plain reference samples every entered edge on its own, ends included, and the two
 * grids must agree. The reference measures fractions against the float64 sum of an edge's pieces
 * (so both directions agree on where a point lies); stampReached measures them against the stored
 * float32 length as the code before it did, hence the 1e-6 relative tolerance.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { costModel, type CostModel } from '../../engines/routing/cost-model.ts';
import { endpointOnEdge, originAtNode, type Endpoint } from '../../engines/routing/endpoints.ts';
import { createTimeGrid, stampTime, type TimeGrid } from '../../engines/routing/isochrone-grid.ts';
import { stampReached } from '../../engines/routing/isochrone-sampling.ts';
import { reachWithin, type Reach } from '../../engines/routing/reach.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';

let v: VancouverGraph;
beforeAll(async () => {
  v = await openVancouverGraph();
}, 120_000);
afterAll(() => v?.close());

/** Every entered edge sampled on its own along its shape, both ends included. */
function referenceStamps(grid: TimeGrid, model: CostModel, reach: Reach, budget: number): void {
  const from = new Map(reach.origin.map((p) => [p.edge, p.fraction]));
  reach.edges.forEach((e, i) => {
    const shape: LngLat[] = model.graph.edgeShape(e);
    const lengths = shape.slice(1).map((p, k) => haversineMetres(shape[k]![0], shape[k]![1], p[0], p[1]));
    const total = lengths.reduce((s, l) => s + l, 0);
    const start = reach.entry[i] === 0 ? from.get(e) ?? 0 : 0;
    let along = 0;
    lengths.forEach((length, k) => {
      const steps = Math.max(1, Math.ceil(length / (0.7 * grid.cellMetres)));
      for (let s = 0; s <= steps; s++) {
        const last = k === lengths.length - 1 && s === steps;
        const fraction = last ? 1 : total > 0 ? (along + (length * s) / steps) / total : 0;
        const seconds = reach.entry[i]! + (fraction - start) * model.seconds(e);
        if (fraction < start || seconds > budget) continue;
        const [x0, y0] = shape[k]!;
        const [x1, y1] = shape[k + 1]!;
        stampTime(grid, x0 + (s / steps) * (x1 - x0), y0 + (s / steps) * (y1 - y0), seconds);
      }
      along += length;
    });
  });
}

function grids(model: CostModel, origin: Endpoint, budget: number): [TimeGrid, TimeGrid] {
  const reach = reachWithin(model, origin, budget, graphTurnRule(model.graph, model.mode));
  const a = model.graph.arrays;
  const index = new Map(Array.from(reach.edges, (e, i) => [e, i]));
  expect(Array.from(reach.reverse)).toEqual(Array.from(reach.edges, (e) => index.get(a.edgeReverse[e]!) ?? -1));
  const ends = Array.from(reach.edges, (e) => v.graph.nodeLngLat(a.edgeTarget[e]!));
  const lngs = ends.map((p) => p[0]);
  const lats = ends.map((p) => p[1]);
  const bounds = { minLng: Math.min(...lngs), maxLng: Math.max(...lngs), minLat: Math.min(...lats), maxLat: Math.max(...lats) };
  const ours = createTimeGrid(bounds);
  const reference = createTimeGrid(bounds);
  stampReached(ours, model, reach, budget);
  referenceStamps(reference, model, reach, budget);
  return [ours, reference];
}

describe('stampReached', () => {
  it('stamps the grid the per-edge reference stamps, from nodes and from points along edges, in every mode', () => {
    const next = random(7);
    let total = 0;
    for (const mode of ['auto', 'bicycle', 'pedestrian'] as const) {
      const model = costModel(v.graph, mode);
      for (let n = 0; n < 4; n++) {
        const edge = Math.floor(next() * v.graph.edgeCount);
        const origin = n % 2 === 0 ? originAtNode(model, v.graph.edgeSource(edge)) : endpointOnEdge(model, edge, next());
        if (origin.length === 0) continue;
        const [ours, reference] = grids(model, origin, mode === 'auto' ? 300 : 900);
        let stamped = 0;
        for (let k = 0; k < ours.seconds.length; k++) {
          const x = ours.seconds[k]!;
          const y = reference.seconds[k]!;
          if (y === Infinity) expect(x).toBe(Infinity);
          else {
            stamped++;
            expect(Math.abs(x - y)).toBeLessThanOrEqual(1e-6 * y + 1e-9);
          }
        }
        expect(stamped).toBeGreaterThan(0);
        total += stamped;
      }
    }
    expect(total).toBeGreaterThan(1000);
  });
});
