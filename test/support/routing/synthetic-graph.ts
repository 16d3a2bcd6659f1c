/**
 * A deterministic synthetic national road graph for the routing benchmark, in the release's
 * arrays: Zipf-sized cities over a Canada-like box (synthetic-cities.ts) with grid streets
 * (synthetic-city-grid.ts), regional roads with farm spurs, a motorway/trunk network with links
 * and interchanges, ferries to island towns (synthetic-network.ts), then hamlets off the regional
 * roads until the node count is reached. Everything is reachable from everything else over
 * directed edges (city one-ways come in couplets between two-way lines; the rest is two-way).
 */
import type { GraphArrays } from '../../../engines/routing/graph-format.ts';
import { seededRandom, type Random } from '../../../lib/seeded-random.ts';
import { GraphBuilder } from './synthetic-builder.ts';
import { buildCityGrid, borderNodeToward, borderNodes, type CityGrid } from './synthetic-city-grid.ts';
import { cityCount, gridPlan, offsetDegrees, planCities } from './synthetic-cities.ts';
import { layoutGraph } from './synthetic-layout.ts';
import { buildFerries, buildHighways, buildRegionalRoads, type Network } from './synthetic-network.ts';
import { AttachIndex, buildRoad } from './synthetic-roads.ts';

export interface SyntheticGraphOptions {
  /** At least this many nodes. */
  nodes: number;
  seed: number;
}

/** Shares of the node budget (regional roads and highways take at most theirs; hamlets fill the rest). */
const CITY_SHARE = 0.9;
const REGIONAL_SHARE = 0.08;
const HIGHWAY_SHARE = 0.015;

export interface SyntheticGraphStats {
  cities: number;
  islands: number;
  hamlets: number;
  /** Nodes after each stage. */
  cityNodes: number;
  regionalNodes: number;
  highwayNodes: number;
  hamletNodes: number;
}

/** Hamlets (small grids 1.5–6 km off a regional junction, joined by an unclassified road) until `target` nodes. */
function addHamlets(net: Network, target: number): number {
  const { b, random, attach } = net;
  const road = b.profiles.road('unclassified', { speed: 60 });
  let hamlets = 0;
  while (b.nodeCount < target) {
    const anchor = attach.nodes[random.int(attach.nodes.length)]!;
    const metres = 1500 + 4500 * random();
    const angle = 2 * Math.PI * random();
    const [lng, lat] = offsetDegrees(b.lngOf(anchor), b.latOf(anchor), metres * Math.cos(angle), metres * Math.sin(angle));
    const nodes = Math.max(25, Math.min(250, target - b.nodeCount, 40 + random.int(200)));
    const hamlet = buildCityGrid(b, random, gridPlan(random, net.cities.length + hamlets, nodes, lng, lat, 100 + 40 * random()), false);
    buildRoad(b, random, borderNodeToward(hamlet, b.lngOf(anchor), b.latOf(anchor)), anchor, {
      step: 200, wiggle: 0.05, junctionEvery: [1000, 1000], profile: () => road,
    });
    hamlets++;
  }
  return hamlets;
}

/** The graph and how its nodes were spent. */
export function syntheticRoadGraphWithStats(options: SyntheticGraphOptions): { arrays: GraphArrays; stats: SyntheticGraphStats } {
  const random: Random = seededRandom(options.seed);
  const b = new GraphBuilder(options.nodes);
  const count = cityCount(options.nodes);
  const plans = planCities(random, options.nodes * CITY_SHARE, count);
  const cores = Math.max(3, Math.round(count * 0.06));
  const cities: CityGrid[] = plans.map((plan) => buildCityGrid(b, random, plan, plan.rank < cores));
  const cityNodes = b.nodeCount;

  const net: Network = { b, random, cities, attach: new AttachIndex(b) };
  for (const city of cities) for (const node of borderNodes(city)) net.attach.add(node);
  // Island towns: mid-sized and small ones reached only by ferry.
  const islandCount = Math.max(1, Math.round(count / 120));
  const islands = new Set<number>();
  while (islands.size < islandCount) islands.add(cores + random.int(count - cores));
  const mainland = cities.map((_, i) => i).filter((i) => !islands.has(i));

  buildRegionalRoads(net, mainland, cores, options.nodes * REGIONAL_SHARE);
  const regionalNodes = b.nodeCount - cityNodes;
  buildHighways(net, mainland.filter((i) => i < cores), options.nodes * HIGHWAY_SHARE);
  const highwayNodes = b.nodeCount - cityNodes - regionalNodes;
  buildFerries(net, [...islands].sort((x, y) => x - y), mainland);
  const beforeHamlets = b.nodeCount;
  const hamlets = addHamlets(net, options.nodes);
  return {
    arrays: layoutGraph(b),
    stats: {
      cities: count, islands: islands.size, hamlets, cityNodes, regionalNodes, highwayNodes,
      hamletNodes: b.nodeCount - beforeHamlets,
    },
  };
}

export function syntheticRoadGraph(options: SyntheticGraphOptions): GraphArrays {
  return syntheticRoadGraphWithStats(options).arrays;
}
