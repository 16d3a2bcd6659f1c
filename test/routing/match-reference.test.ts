/**
 * The matcher's searches and decoding against plain references (reference-transition.ts,
 * reference-viterbi.ts) on Vancouver traces (pelias-vancouver_canada.osm.pbf, © OpenStreetMap
 * contributors, ODbL), at ordinary and at large GPS accuracies (issue 28: the backward search
 * once walked every way back and ran for minutes at 100 m). Every transition's route metres and
 * stay/move verdict match the reference, the engine's chosen states score the reference's optimum,
 * and the search's work stays within the edges a bounded search can touch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { costModel } from '../../engines/routing/cost-model.ts';
import { candidateStates } from '../../engines/routing/match/candidates.ts';
import { hopMetres, MATCH_DEFAULTS, routeLimit, type MatchOptions, type TraceFix } from '../../engines/routing/match/trace.ts';
import { TransitionSearch } from '../../engines/routing/match/transition-search.ts';
import { decodeTrace } from '../../engines/routing/match/viterbi.ts';
import type { Mode } from '../../engines/routing/modes.ts';
import type { RoadNetwork } from '../../engines/routing/release.ts';
import { SnapIndex } from '../../engines/routing/snap.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import { seededRandom as random } from '../../lib/seeded-random.ts';
import { randomRoutes, sampleTrace } from '../support/routing/match-traces.ts';
import { incomingLists, referenceTransitions } from './reference-transition.ts';
import { backToleranceOf, referenceDecode, runScore } from './reference-viterbi.ts';
import { openVancouverGraph, type VancouverGraph } from './vancouver-graph.ts';

let vancouver: VancouverGraph;
let network: RoadNetwork;

beforeAll(async () => {
  vancouver = await openVancouverGraph();
  network = { releaseId: 'test', graph: vancouver.graph, snap: SnapIndex.build(vancouver.graph), hierarchy: null };
}, 120_000);

afterAll(async () => {
  await vancouver?.close();
});

/** The repro: two fixes 560 m apart downtown. */
const REPRO: [number, number][] = [[-123.1207, 49.2827], [-123.1150, 49.2790]];

interface Case {
  name: string;
  mode: Mode;
  options: Partial<MatchOptions>;
  trace: () => TraceFix[];
}

const fixesOf = (points: [number, number][], accuracy: number | null = null): TraceFix[] => points.map(([lng, lat]) => ({ lng, lat, time: null, accuracy }));

function routeTrace(mode: Mode, seed: number, interval: number, noise: number, accuracy: (i: number) => number | null): TraceFix[] {
  const model = costModel(network.graph, mode);
  const route = randomRoutes(network, model, random(seed), 1, [-123.2, 49.22, -123.05, 49.3], 1500, 3000)[0]!;
  return sampleTrace(model, route, interval, noise, random(seed + 1)).map((f, i) => ({ lng: f.lng, lat: f.lat, time: f.time, accuracy: accuracy(i) }));
}

const CASES: Case[] = [
  { name: 'repro, pedestrian, gps_accuracy 100', mode: 'pedestrian', options: { gpsAccuracy: 100 }, trace: () => fixesOf(REPRO) },
  { name: 'repro, pedestrian, gps_accuracy 70, radius 200', mode: 'pedestrian', options: { gpsAccuracy: 70, searchRadius: 200 }, trace: () => fixesOf(REPRO) },
  { name: 'repro, auto, accuracy 250 per point, radius 200', mode: 'auto', options: { searchRadius: 200 }, trace: () => fixesOf([REPRO[0]!, [-123.1100, 49.2757]], 250) },
  { name: 'auto trace, 10 m', mode: 'auto', options: { gpsAccuracy: 10 }, trace: () => routeTrace('auto', 5, 5, 10, () => null) },
  { name: 'pedestrian trace, 60 m, radius 100', mode: 'pedestrian', options: { gpsAccuracy: 60, searchRadius: 100 }, trace: () => routeTrace('pedestrian', 7, 60, 20, () => null) },
  { name: 'bicycle trace, every third fix 150 m', mode: 'bicycle', options: { gpsAccuracy: 8, searchRadius: 150 }, trace: () => routeTrace('bicycle', 9, 20, 8, (i) => (i % 3 === 0 ? 150 : null)) },
  { name: 'truck trace, 40 m', mode: 'truck', options: { gpsAccuracy: 40, searchRadius: 120 }, trace: () => routeTrace('truck', 13, 10, 15, () => null) },
];

describe('map matching against plain references', () => {
  it.each(CASES)('$name: transitions, stays and the decoded score match the references', ({ mode, options: partial, trace: make }) => {
    const options: MatchOptions = { ...MATCH_DEFAULTS, ...partial };
    const model = costModel(network.graph, mode);
    const rule = graphTurnRule(network.graph, mode);
    const incoming = incomingLists(model);
    const trace = make();
    const runs = decodeTrace(network.snap, model, trace, options);
    expect(runs).toHaveLength(1);
    const run = runs[0]!;
    expect(run.fixes.length).toBeGreaterThanOrEqual(2);

    const search = new TransitionSearch(model);
    let compared = 0;
    for (let k = 0; k + 1 < run.fixes.length; k++) {
      const from = trace[run.fixes[k]!]!;
      const to = trace[run.fixes[k + 1]!]!;
      const sources = candidateStates(network.snap, model, from, options);
      const targets = candidateStates(network.snap, model, to, options);
      const limit = routeLimit(hopMetres(from, to), options);
      const tolerance = backToleranceOf(to, options);
      for (const source of sources) {
        const expected = referenceTransitions(model, rule, incoming, source, targets, limit, tolerance);
        const before = search.work;
        const got = Array.from(search.run(source, targets, limit, tolerance, null));
        // Each edge is settled at most once forward and once backward.
        expect(search.work - before).toBeLessThanOrEqual(2 * network.graph.edgeCount);
        expected.forEach((e, j) => {
          if (e.metres === Infinity) {
            expect(got[j]).toBe(Infinity);
            return;
          }
          expect(got[j]).toBeCloseTo(e.metres, 6);
          expect(search.pathTo(j).jitter).toBe(e.stay);
          compared++;
        });
      }
    }
    expect(compared).toBeGreaterThan(0);

    const reference = referenceDecode(network.snap, model, trace, options);
    expect(reference.fixes).toEqual(run.fixes);
    expect(reference.best).not.toBeNull();
    expect(runScore(run, trace, options)).toBeCloseTo(reference.best!, 6);
  });
});
