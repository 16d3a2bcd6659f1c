/**
 * Our side of the engine benchmark, one query at a time over the same node pairs:
 * - chRoute: the bidirectional CH query with unpacking, endpoints on the hierarchy's metric
 *   edges — the problem pgRouting is given (pgrouting-peer.ts);
 * - shortestPath for auto with default options, endpoints on edges auto may use: the facade the
 *   API calls (CH path priced with the cost model and checked for turn restrictions, or A* with
 *   CH-potentials when the check fails);
 * - optionally plain A* (searchRoute towards the destination point), for reference.
 * Endpoints are built before timing (snapping is not part of the engine time).
 */
import { priceChPath, reachesFloor } from '../../engines/routing/checked-ch-path.ts';
import { chRoute } from '../../engines/routing/contraction/query.ts';
import { costModel } from '../../engines/routing/cost-model.ts';
import type { Endpoint } from '../../engines/routing/endpoints.ts';
import { searchRoute } from '../../engines/routing/search.ts';
import { shortestPath } from '../../engines/routing/shortest-path.ts';
import { graphTurnRule } from '../../engines/routing/turn-rule.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { BenchNetwork } from './bench-network.ts';
import type { IncomingEdges } from '../../engines/routing/incoming-edges.ts';
import { arriving, leaving, type NodePair } from './node-pairs.ts';
import { summarize, timeEach, type Timings } from './timing.ts';

export interface OursEngine {
  ch: Timings;
  /** chRoute milliseconds per pair, in pair order (for ratios over the peer's subset). */
  chMs: number[];
  facade: Timings;
  astar: Timings | null;
  /** Auto routes where the CH path failed the model check and the facade searched with CH-potentials. */
  fallbacks: number;
  /** Pairs auto cannot drive (connected only over edges the hierarchy has for trucks). */
  unroutable: number;
  /** Largest relative difference between A* and the facade's costs (both exact for the model). */
  astarMaxRelDiff: number | null;
  /** Mean seconds of the auto routes (trip length). */
  meanTripSeconds: number;
}

interface Query { origin: Endpoint; destination: Endpoint; target: LngLat }

export function timeOurs(net: BenchNetwork, incoming: IncomingEdges, pairs: readonly NodePair[], withAStar: boolean): OursEngine {
  const { graph, hierarchy } = net;
  const model = costModel(graph, 'auto');
  const turnRule = graphTurnRule(graph, 'auto');
  const metric = hierarchy.arrays.edgeWeight;
  const inMetric = (e: number) => metric[e]! < Infinity;
  const auto = (e: number) => model.allowed(e);
  const queries = (usable: (e: number) => boolean): Query[] => pairs.map((p) => ({
    origin: leaving(graph, p.origin, usable), destination: arriving(incoming, p.destination, usable), target: graph.nodeLngLat(p.destination),
  }));
  const metricQueries = queries(inMetric);
  const autoQueries = queries(auto);

  for (const [i, q] of metricQueries.entries()) {
    const bound = chRoute(hierarchy, graph, q.origin, q.destination)?.bound;
    if (bound !== pairs[i]!.bound) throw new Error(`chRoute is not deterministic: pair ${i} gave ${bound} and ${pairs[i]!.bound}`);
  }
  const chMs = timeEach(metricQueries, (q) => chRoute(hierarchy, graph, q.origin, q.destination));
  const facade = summarize(timeEach(autoQueries, (q) => shortestPath(model, hierarchy, q.origin, q.destination, q.target)));

  let fallbacks = 0;
  let unroutable = 0;
  let tripSeconds = 0;
  const costs = autoQueries.map((q) => {
    const path = chRoute(hierarchy, graph, q.origin, q.destination);
    const priced = path && priceChPath(model, path, turnRule);
    if (path && !(priced && reachesFloor(model, priced.cost, path.bound))) fallbacks++;
    const route = shortestPath(model, hierarchy, q.origin, q.destination, q.target);
    if (route === null) unroutable++;
    tripSeconds += route?.seconds ?? 0;
    return route?.cost ?? Infinity;
  });

  let astar: Timings | null = null;
  let astarMaxRelDiff: number | null = null;
  if (withAStar) {
    astar = summarize(timeEach(autoQueries, (q) => searchRoute(model, q.origin, q.destination, { turnRule, targetLngLat: q.target })));
    astarMaxRelDiff = 0;
    for (const [i, q] of autoQueries.entries()) {
      const c = searchRoute(model, q.origin, q.destination, { turnRule, targetLngLat: q.target })?.cost ?? Infinity;
      const diff = c === costs[i] ? 0 : Math.abs(c - costs[i]!) / Math.max(c, costs[i]!);
      astarMaxRelDiff = Math.max(astarMaxRelDiff, diff);
    }
  }
  return { ch: summarize(chMs), chMs, facade, astar, fallbacks, unroutable, astarMaxRelDiff, meanTripSeconds: tripSeconds / Math.max(1, pairs.length - unroutable) };
}
