import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BICYCLE_KMH, PEDESTRIAN_KMH, costModel, type CostOptions } from '../../engines/routing/cost-model.ts';
import { destinationAtNode, originAtNode } from '../../engines/routing/endpoints.ts';
import type { GraphArrays } from '../../engines/routing/graph-format.ts';
import type { Mode } from '../../engines/routing/modes.ts';
import { RoadGraph } from '../../engines/routing/road-graph.ts';
import { shortestPath } from '../../engines/routing/shortest-path.ts';
import { computeEdgeGrades } from '../../ingest/roads/edge-grades.ts';
import { haversineMetres } from '../../lib/geo/haversine.ts';
import { buildHillArrays, hillDem, hillEdges, hillNode } from '../roads/hill-fixture.ts';

// The hillside of hill-fixture.ts: from A to B either the direct street (300 m at 12 %) or the
// switchback (949 m at 4 %).
let dir: string;
let flatArrays: GraphArrays;
let graph: RoadGraph;

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'canmap-hills-'));
  flatArrays = await buildHillArrays(dir);
  graph = new RoadGraph({ ...flatArrays, edgeGrade: computeEdgeGrades(flatArrays, hillDem).grades });
});

afterAll(() => rm(dir, { recursive: true, force: true }));

function route(g: RoadGraph, mode: Mode, from: string, to: string, options: CostOptions = {}) {
  const model = costModel(g, mode, options);
  const path = shortestPath(model, null, originAtNode(model, hillNode(g, from)), destinationAtNode(model, hillNode(g, to)), g.nodeLngLat(hillNode(g, to)));
  if (!path) throw new Error(`no ${mode} route ${from} → ${to}`);
  return { ...path, via: g.edgeName(path.edges[0]!) };
}

const edgeOf = (from: string, to: string, name: string) => hillEdges(graph, from, to).find((e) => graph.edgeName(e) === name)!;

describe('grades in the bicycle and pedestrian cost models', () => {
  it('sends a bicycle up the steep direct street at use_hills 1 and round by the switchback at 0 and by default', () => {
    expect(route(graph, 'bicycle', 'A', 'B', { useHills: 1 }).via).toBe('Direct');
    expect(route(graph, 'bicycle', 'A', 'B', { useHills: 0 }).via).toBe('Switchback');
    expect(route(graph, 'bicycle', 'A', 'B').via).toBe('Switchback');
    // downhill the direct street is quicker and its 12 % descent not worth 650 m more, even at 0
    expect(route(graph, 'bicycle', 'B', 'A', { useHills: 0 }).via).toBe('Direct');
    // without grades the direct street is shorter whatever use_hills says
    const flat = new RoadGraph(flatArrays);
    expect(route(flat, 'bicycle', 'A', 'B', { useHills: 0 }).via).toBe('Direct');
  });

  it('times a bicycle by grade: slower up, faster down, the flat speed on the flat', () => {
    const model = costModel(graph, 'bicycle', { useHills: 1 });
    const up = edgeOf('A', 'B', 'Direct');
    const down = edgeOf('B', 'A', 'Direct');
    const flatMps = BICYCLE_KMH / 3.6;
    const length = graph.arrays.edgeLength[up]!;
    // Valhalla's speed factors: 0.45 at 12 %, 2.2 at −10 % and steeper
    expect(model.seconds(up)).toBeCloseTo(length / (flatMps * 0.45), 6);
    expect(model.seconds(down)).toBeCloseTo(length / (flatMps * 2.2), 6);
    expect(costModel(new RoadGraph(flatArrays), 'bicycle').seconds(up)).toBe(length / flatMps);
    // use_hills 1: cost is the travel time; below it the hill-avoidance factor adds to it
    expect(model.cost(up)).toBe(model.seconds(up));
    expect(costModel(graph, 'bicycle', { useHills: 0 }).cost(up)).toBeCloseTo(model.seconds(up) * (1 + 6.5), 6);
    expect(costModel(graph, 'bicycle', { useHills: 0 }).seconds(up)).toBe(model.seconds(up));
  });

  it('walks downhill faster than uphill, and avoids hills by use_hills', () => {
    const model = costModel(graph, 'pedestrian', { useHills: 1 });
    const up = edgeOf('A', 'B', 'Direct');
    const down = edgeOf('B', 'A', 'Direct');
    const flatSeconds = graph.arrays.edgeLength[up]! / (PEDESTRIAN_KMH / 3.6);
    expect(model.seconds(down)).toBeLessThan(model.seconds(up));
    expect(model.seconds(up)).toBeCloseTo(flatSeconds * 2.03, 6);
    expect(model.seconds(down)).toBeCloseTo(flatSeconds * 1.33, 6);
    // the gentle switchback descent (−4 %) is quicker than walking it flat
    const gentle = edgeOf('B', 'A', 'Switchback');
    expect(model.seconds(gentle)).toBeLessThan(graph.arrays.edgeLength[gentle]! / (PEDESTRIAN_KMH / 3.6));
    // 12 % falls in Valhalla's 11.5 % bucket: strength 1, so use_hills 0 doubles the cost
    expect(costModel(graph, 'pedestrian', { useHills: 0 }).cost(up)).toBeCloseTo(model.seconds(up) * 2, 6);
    expect(route(graph, 'pedestrian', 'A', 'B', { useHills: 1 }).via).toBe('Direct');
  });

  it('applies the defaults when use_hills is absent: 0.25 bicycle, 0.5 pedestrian; none for driving', () => {
    const up = edgeOf('A', 'B', 'Direct');
    for (const [mode, fallback] of [['bicycle', 0.25], ['pedestrian', 0.5]] as const) {
      const model = costModel(graph, mode);
      expect(model.useHills).toBe(fallback);
      expect(model.cost(up)).toBe(costModel(graph, mode, { useHills: fallback }).cost(up));
      expect(model.cost(up)).not.toBe(costModel(graph, mode, { useHills: 1 }).cost(up));
    }
    const flat = new RoadGraph(flatArrays);
    for (const mode of ['auto', 'truck'] as const) {
      const model = costModel(graph, mode, { useHills: 0 });
      expect(model.useHills).toBeNull();
      for (let e = 0; e < graph.edgeCount; e++) {
        expect(model.seconds(e)).toBe(costModel(flat, mode).seconds(e));
        expect(model.cost(e)).toBe(costModel(flat, mode).cost(e));
      }
    }
  });

  it('keeps the A* bound below every edge: the fastest descent sets it', () => {
    for (const mode of ['bicycle', 'pedestrian'] as const) {
      for (const useHills of [0, 0.5, 1]) {
        const model = costModel(graph, mode, { useHills });
        for (let e = 0; e < graph.edgeCount; e++) {
          if (!model.allowed(e)) continue;
          const [lng1, lat1] = graph.nodeLngLat(graph.edgeSource(e));
          const [lng2, lat2] = graph.nodeLngLat(graph.edgeTarget(e));
          expect(model.minCostPerMetre * haversineMetres(lng1, lat1, lng2, lat2), `${mode} edge ${e}`).toBeLessThanOrEqual(model.cost(e));
        }
      }
    }
    // the bicycle's bound is set by the 12 % descent (2.2 × 18 km/h), not the flat speed
    expect(costModel(graph, 'bicycle').minCostPerMetre).toBeLessThan(1 / (2.1 * BICYCLE_KMH / 3.6));
    expect(costModel(new RoadGraph(flatArrays), 'bicycle').minCostPerMetre).toBeCloseTo((1 / (BICYCLE_KMH / 3.6)) * 0.999, 9);
  });
});
