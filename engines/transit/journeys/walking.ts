/**
 * The walks of one feed's network in release-wide stop indexes: access and egress to the stops
 * near a point, footpaths between stops, the time to change trips at a stop, and the direct
 * walk. Straight-line (walk-model.ts), or along the pedestrian roads of an enabled roads release
 * (street-walks.ts). The router reads `paths` directly; the reference search of the tests takes
 * the rest.
 */
import type { RoadNetwork } from '../../routing/release.ts';
import type { TransitData } from '../data.ts';
import { buildFootpaths, type Footpaths, type MeasureWalks } from './footpaths.ts';
import { transitNetwork, type TransitNetwork } from './network.ts';
import { straightWalk, streetLimitSeconds, streetWalks, type OnRoad, type StreetWalks, type Walk } from './street-walks.ts';
import { MAX_WALK_METRES, stopPoint, type WalkTo } from './walk-model.ts';
import { haversineMetres } from '../../../lib/geo/haversine.ts';

type Point = readonly [number, number];

export interface TransitWalking {
  network: TransitNetwork;
  /** The footpaths by network stop, as RAPTOR reads them. */
  paths: Footpaths;
  /** The feed's served stops within MAX_WALK_METRES (great-circle) of the point that a walk reaches, shortest walk first. */
  accessStops(point: Point): WalkTo[];
  /** The same read backwards: walks measured outwards from the point (exact for straight lines; on the streets, a slope or oneway:foot counts in that direction). */
  egressStops(point: Point): WalkTo[];
  /** Stops a transfer may walk to from `stop` (itself excluded), shortest first. */
  footpaths(stop: number): WalkTo[];
  /** Seconds from alighting at `stop` to boarding another trip there (transfers.txt); Infinity when not allowed. */
  changeSeconds(stop: number): number;
  /** accessStops(from), and the direct walk to `to` when the ends are within MAX_WALK_METRES (else null), in one search. */
  accessAndDirect(from: Point, to: Point): { access: WalkTo[]; direct: Walk | null };
  /** The direct walk's seconds (the shape a reference search takes). */
  direct(from: Point, to: Point): number | null;
}

/** The walking of feed `feedId`, along the streets of `roads` when given; null when the release has no such feed. */
export function transitWalking(data: TransitData, feedId: string, roads: RoadNetwork | null = null): TransitWalking | null {
  const network = transitNetwork(data, feedId);
  if (!network) return null;
  const streets = roads ? streetWalks(roads) : null;
  const paths = streets ? streetFootpaths(data, network, streets) : network.footpaths;

  /** Road positions of the request's points, found once per point. */
  const pointsOnRoad = new Map<string, OnRoad | null>();
  const onRoad = (point: Point) => {
    const key = `${point[0]},${point[1]}`;
    if (!pointsOnRoad.has(key)) pointsOnRoad.set(key, streets!.onRoad(point));
    return pointsOnRoad.get(key)!;
  };
  /** The walks from `point` to the served stops within MAX_WALK_METRES, and to `also` when given (one search). */
  const near = (point: Point, also?: Point): { stops: WalkTo[]; also: Walk | null } => {
    const hits = data.grid.within(point[0], point[1], MAX_WALK_METRES, Number.MAX_SAFE_INTEGER).filter(({ item }) => network.networkStop[item]! >= 0);
    const targets: Point[] = hits.map(({ item }) => stopPoint(data, item)!);
    const reachAlso = also !== undefined && haversineMetres(point[0], point[1], also[0], also[1]) <= MAX_WALK_METRES;
    if (reachAlso) targets.push(also);
    const walks = streets
      ? streets.walks(point, targets, streetLimitSeconds(MAX_WALK_METRES), [...hits.map(({ item }) => stopOnRoad(data, streets, item)), ...(reachAlso ? [onRoad(also)] : [])], onRoad(point))
      : targets.map((target) => straightWalk(point, target));
    const stops: WalkTo[] = [];
    hits.forEach(({ item }, i) => {
      const walk = walks[i];
      if (walk) stops.push({ stop: item, seconds: walk.seconds, metres: walk.metres, ...(walk.line ? { line: walk.line } : {}) });
    });
    return { stops: stops.sort((a, b) => a.seconds - b.seconds || a.stop - b.stop), also: reachAlso ? walks[hits.length]! : null };
  };
  return {
    network,
    paths,
    accessStops: (point) => near(point).stops,
    egressStops: (point) => near(point).stops,
    accessAndDirect: (from, to) => {
      const { stops, also } = near(from, to);
      return { access: stops, direct: also };
    },
    footpaths: (stop) => {
      const from = network.networkStop[stop] ?? -1;
      const out: WalkTo[] = [];
      if (from < 0) return out;
      const { to, seconds, metres } = paths.from(from);
      for (let i = 0; i < to.length; i++) out.push({ stop: network.stops[to[i]!]!, seconds: seconds[i]!, metres: metres[i]! });
      return out;
    },
    changeSeconds: (stop) => {
      const at = network.networkStop[stop] ?? -1;
      return at >= 0 ? paths.changeSeconds[at]! : 0;
    },
    direct: (from, to) => near(from, to).also?.seconds ?? null,
  };
}

/** Stops' road positions, found once per roads release and transit release. */
const stopsOnRoad = new WeakMap<StreetWalks, WeakMap<TransitData, (OnRoad | null | undefined)[]>>();

function stopOnRoad(data: TransitData, streets: StreetWalks, stop: number): OnRoad | null {
  let byData = stopsOnRoad.get(streets);
  if (!byData) stopsOnRoad.set(streets, (byData = new WeakMap()));
  let list = byData.get(data);
  if (!list) byData.set(data, (list = []));
  if (list[stop] === undefined) {
    const at = stopPoint(data, stop);
    list[stop] = at ? streets.onRoad(at) : null;
  }
  return list[stop]!;
}

function streetMeasure(data: TransitData, streets: StreetWalks): MeasureWalks {
  return (from, to, radius) => {
    const a = stopPoint(data, from);
    if (!a) return to.map(() => null);
    const points = to.map((stop) => stopPoint(data, stop));
    const known = to.filter((_, i) => points[i] !== null);
    const walks = streets.walks(
      a, known.map((stop) => stopPoint(data, stop)!), streetLimitSeconds(radius), known.map((stop) => stopOnRoad(data, streets, stop)), stopOnRoad(data, streets, from),
    );
    let k = 0;
    return points.map((p) => (p ? walks[k++]! : null));
  };
}

/** Street footpaths per network and roads release (each stop's measured on first use: one bounded search). */
const streetPaths = new WeakMap<TransitNetwork, WeakMap<StreetWalks, Footpaths>>();

function streetFootpaths(data: TransitData, network: TransitNetwork, streets: StreetWalks): Footpaths {
  let byStreets = streetPaths.get(network);
  if (!byStreets) streetPaths.set(network, (byStreets = new WeakMap()));
  let paths = byStreets.get(streets);
  if (!paths) byStreets.set(streets, (paths = buildFootpaths(data, network.stops, network.networkStop, streetMeasure(data, streets))));
  return paths;
}
