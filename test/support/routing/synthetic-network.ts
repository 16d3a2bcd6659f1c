/**
 * The networks between the cities: regional roads (primary..unclassified, by the size of the
 * towns they join) over a minimum spanning tree of the towns plus each one's two nearest
 * neighbours, with farm roads, tracks and driveways branching off; a motorway/trunk network over
 * the largest cities (spanning tree plus each one's three nearest), reaching each city through
 * motorway links and the regional roads through interchanges (ramp + connector), some corridors
 * tolled and some with a hazmat-forbidden tunnel; and ferries to the island towns.
 */
import { EDGE_FLAG } from '../../../engines/routing/graph-format.ts';
import type { RoadClass } from '../../../engines/routing/modes.ts';
import { haversineMetres } from '../../../lib/geo/haversine.ts';
import type { Random } from '../../../lib/seeded-random.ts';
import type { GraphBuilder } from './synthetic-builder.ts';
import { type CityGrid, borderNodeToward } from './synthetic-city-grid.ts';
import { offsetDegrees } from './synthetic-cities.ts';
import { type AttachIndex, buildRoad, roadPath } from './synthetic-roads.ts';

export interface Network {
  b: GraphBuilder;
  random: Random;
  cities: CityGrid[];
  /** Regional junctions and city edges, for roads that join the network later. */
  attach: AttachIndex;
}

interface CityLink {
  a: number;
  z: number;
  metres: number;
}

const centreMetres = (p: CityGrid, q: CityGrid): number => haversineMetres(p.lng, p.lat, q.lng, q.lat);

/** The minimum spanning tree of the member cities (Prim) plus each one's `neighbours` nearest, without repeats. */
export function cityLinks(cities: readonly CityGrid[], members: readonly number[], neighbours: number): CityLink[] {
  const m = members.length;
  const links = new Map<string, CityLink>();
  const add = (x: number, y: number, metres: number) => {
    const [a, z] = x < y ? [x, y] : [y, x];
    links.set(`${a}:${z}`, { a, z, metres });
  };
  const inTree = new Uint8Array(m);
  const best = new Float64Array(m).fill(Infinity);
  const via = new Int32Array(m).fill(-1);
  best[0] = 0;
  for (let round = 0; round < m; round++) {
    let u = -1;
    for (let i = 0; i < m; i++) if (!inTree[i] && (u < 0 || best[i]! < best[u]!)) u = i;
    inTree[u] = 1;
    if (via[u]! >= 0) add(members[via[u]!]!, members[u]!, best[u]!);
    for (let i = 0; i < m; i++) {
      if (inTree[i]) continue;
      const d = centreMetres(cities[members[u]!]!, cities[members[i]!]!);
      if (d < best[i]!) {
        best[i] = d;
        via[i] = u;
      }
    }
  }
  for (let i = 0; i < m; i++) {
    const near: Array<[number, number]> = [];
    for (let j = 0; j < m; j++) {
      if (j === i) continue;
      const d = centreMetres(cities[members[i]!]!, cities[members[j]!]!);
      if (near.length < neighbours || d < near[near.length - 1]![1]) {
        near.push([j, d]);
        near.sort((x, y) => x[1] - y[1]);
        if (near.length > neighbours) near.pop();
      }
    }
    for (const [j, d] of near) add(members[i]!, members[j]!, d);
  }
  return [...links.values()];
}

/** Metres of road a link needs between the two city edges. */
const linkLength = (net: Network, l: CityLink): number => Math.max(1000, l.metres - net.cities[l.a]!.radius - net.cities[l.z]!.radius);

/** Path point spacing and junction spacing (in points) for roads sharing `budget` nodes over `metres`. */
function spacing(metres: number, budget: number, minJunctionMetres: number): { step: number; every: [number, number] } {
  const junction = Math.max(minJunctionMetres, metres / Math.max(1, budget));
  const step = Math.max(200, Math.min(800, junction / 6));
  const mean = Math.max(1, Math.round(junction / step));
  return { step, every: [Math.max(1, Math.round(mean * 0.5)), Math.max(1, Math.round(mean * 1.5))] };
}

function regionalClass(net: Network, l: CityLink, cores: number): { roadClass: RoadClass; speed: number } {
  const smaller = Math.max(net.cities[l.a]!.rank, net.cities[l.z]!.rank) / net.cities.length;
  if (Math.max(net.cities[l.a]!.rank, net.cities[l.z]!.rank) < cores) return { roadClass: 'primary', speed: 90 };
  if (smaller < 0.25) return { roadClass: 'secondary', speed: 80 };
  if (smaller < 0.6) return { roadClass: 'tertiary', speed: 80 };
  return { roadClass: 'unclassified', speed: 60 };
}

/** A dead-end farm road, track or driveway of one or two segments off `node`. */
function spur(net: Network, node: number): void {
  const { b, random } = net;
  const r = random();
  const profile = b.profiles.road(r < 0.45 ? 'unclassified' : r < 0.8 ? 'track' : 'service', r < 0.45 ? { speed: 60 } : {});
  let from = node;
  for (let k = random() < 0.4 ? 2 : 1; k > 0; k--) {
    const metres = 300 + 1500 * random();
    const angle = 2 * Math.PI * random();
    const [lng, lat] = offsetDegrees(b.lngOf(from), b.latOf(from), metres * Math.cos(angle), metres * Math.sin(angle));
    const end = b.addNode(lng, lat);
    buildRoad(b, random, from, end, { step: 150, wiggle: 0.05, junctionEvery: [1000, 1000], profile: () => profile });
    from = end;
  }
}

/** Regional roads between the member towns, sharing about `budget` graph nodes (junctions and spurs). */
export function buildRegionalRoads(net: Network, members: readonly number[], cores: number, budget: number): void {
  const { b, random, cities, attach } = net;
  const links = cityLinks(cities, members, 2);
  const SPUR = 0.35;
  const total = links.reduce((sum, l) => sum + linkLength(net, l), 0);
  const { step, every } = spacing(total, budget / (1 + SPUR * 1.4), 1200);
  links.forEach((l, index) => {
    const { roadClass, speed } = regionalClass(net, l, cores);
    const plain = b.profiles.road(roadClass, { speed });
    const from = borderNodeToward(cities[l.a]!, cities[l.z]!.lng, cities[l.z]!.lat);
    const to = borderNodeToward(cities[l.z]!, cities[l.a]!.lng, cities[l.a]!.lat);
    const numbered = roadClass === 'primary' || roadClass === 'secondary';
    buildRoad(b, random, from, to, {
      step, wiggle: 0.04, junctionEvery: every,
      // A few bridges with a weight limit above the default truck's 21.77 t (heavier trucks detour).
      profile: () => (random() < 0.02
        ? b.profiles.road(roadClass, { speed, flags: EDGE_FLAG.bridge, maxWeight: 25 + 5 * random.int(5) })
        : plain),
      ref: numbered ? b.string(`Hwy ${100 + (index % 900)}`) : 0,
      name: numbered ? 0 : b.string(`${random() < 0.5 ? 'Range' : 'Township'} Road ${10 + random.int(990)}`),
      onJunction: (node) => {
        attach.add(node);
        if (random() < SPUR) spur(net, node);
      },
    });
  });
}

/** Motorways and trunk highways between the member (largest) cities, sharing about `budget` nodes. */
export function buildHighways(net: Network, members: readonly number[], budget: number): void {
  const { b, random, cities, attach } = net;
  const links = cityLinks(cities, members, 3).sort((x, y) => x.metres - y.metres);
  const motorwayUpTo = Math.max(450_000, links[Math.floor((links.length - 1) / 2)]?.metres ?? 0);
  const total = links.reduce((sum, l) => sum + linkLength(net, l), 0);
  const { step, every } = spacing(total, budget / 2, 2500);
  const regional = spacing(total, budget / 2, 1200);
  const link = b.profiles.road('motorway', { link: true });
  const connector = b.profiles.road('secondary', { speed: 80 });
  links.forEach((l, index) => {
    const motorway = l.metres <= motorwayUpTo;
    const speed = motorway ? (random() < 0.25 ? 110 : 100) : 90;
    // Every fifth corridor (the shortest among them, always a motorway) and a few more are tolled.
    const flags = motorway && (index % 5 === 0 || random() < 0.1) ? EDGE_FLAG.toll : 0;
    const plain = b.profiles.road(motorway ? 'motorway' : 'trunk', { speed, flags });
    const a = cities[l.a]!;
    const z = cities[l.z]!;
    let from = borderNodeToward(a, z.lng, z.lat);
    let to = borderNodeToward(z, a.lng, a.lat);
    if (motorway) {
      // The motorway itself starts and ends 500–900 m out, reached from the city by a link.
      from = rampFrom(b, random, from, to, link);
      to = rampFrom(b, random, to, from, link);
    }
    if (index % 3 === 0) {
      // A tunnel of 0.5–2 km where the highway leaves the first city, closed to hazardous loads.
      const tunnel = b.profiles.road(motorway ? 'motorway' : 'trunk', {
        speed: Math.min(speed, 80), flags: flags | EDGE_FLAG.tunnel | EDGE_FLAG.hazmatForbidden,
      });
      const metres = haversineMetres(b.lngOf(from), b.latOf(from), b.lngOf(to), b.latOf(to));
      const t = Math.min(0.3, (500 + 1500 * random()) / Math.max(1, metres));
      const portal = b.addNode(b.lngOf(from) + (b.lngOf(to) - b.lngOf(from)) * t, b.latOf(from) + (b.latOf(to) - b.latOf(from)) * t);
      b.addSegment(from, portal, tunnel);
      from = portal;
    }
    let lastInterchange = 0;
    let nextGap = 8000 + 12_000 * random();
    buildRoad(b, random, from, to, {
      step, wiggle: 0.015, junctionEvery: every,
      profile: () => plain,
      ref: b.string(motorway ? `Hwy ${400 + (index % 100)}` : `Hwy ${1 + (index % 99)}`),
      name: motorway ? 0 : b.string('Trans-Canada Highway'),
      onJunction: (node, metres) => {
        if (metres - lastInterchange < nextGap) return;
        const target = attach.nearest(b.lngOf(node), b.latOf(node), 12_000);
        if (target < 0) return;
        lastInterchange = metres;
        nextGap = 8000 + 12_000 * random();
        // Motorways reach the regional road through a ramp; trunks meet it at grade.
        const start = motorway ? rampFrom(b, random, node, target, link) : node;
        buildRoad(b, random, start, target, { step: regional.step, wiggle: 0.05, junctionEvery: regional.every, profile: () => connector });
      },
    });
  });
}

/** A new node 500–900 m from `node` toward `toward`, joined to it by a curved `profile` segment. */
function rampFrom(b: GraphBuilder, random: Random, node: number, toward: number, profile: number): number {
  const lng = b.lngOf(node);
  const lat = b.latOf(node);
  const metres = haversineMetres(lng, lat, b.lngOf(toward), b.latOf(toward));
  const t = Math.min(0.5, (500 + 400 * random()) / Math.max(1, metres));
  const ramp = b.addNode(lng + (b.lngOf(toward) - lng) * t, lat + (b.latOf(toward) - lat) * t);
  const path = roadPath(random, lng, lat, b.lngOf(ramp), b.latOf(ramp), 150, 0.15);
  for (let k = 1; k < path.length / 2 - 1; k++) b.addShapePoint(path[2 * k]!, path[2 * k + 1]!);
  b.addSegment(node, ramp, profile);
  return ramp;
}

/** Ferry crossing speed and boarding time. */
const FERRY_KMH = 24;
const FERRY_BOARDING_SECONDS = 1200;

/** A ferry from each island town to the nearest mainland city. */
export function buildFerries(net: Network, islands: readonly number[], mainland: readonly number[]): number {
  const { b, random, cities } = net;
  const profile = b.profiles.road('ferry');
  const name = b.string('Ferry');
  for (const i of islands) {
    const island = cities[i]!;
    let port = mainland[0]!;
    for (const m of mainland) if (centreMetres(island, cities[m]!) < centreMetres(island, cities[port]!)) port = m;
    const from = borderNodeToward(island, cities[port]!.lng, cities[port]!.lat);
    const to = borderNodeToward(cities[port]!, island.lng, island.lat);
    const path = roadPath(random, b.lngOf(from), b.latOf(from), b.lngOf(to), b.latOf(to), 2000, 0.08);
    for (let k = 1; k < path.length / 2 - 1; k++) b.addShapePoint(path[2 * k]!, path[2 * k + 1]!);
    const s = b.addSegment(from, to, profile, name);
    b.ferrySeconds.set(s, (b.segLength[s]! * 3.6) / FERRY_KMH + FERRY_BOARDING_SECONDS);
  }
  return islands.length;
}
