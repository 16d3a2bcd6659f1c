/**
 * Walks measured along the pedestrian roads of an enabled road graph (the routing engine's
 * pedestrian model, fastest way: use_hills 1), for access, egress, footpaths and the direct walk
 * when a roads release is enabled. Each end joins the nearest pedestrian road; the straight part
 * between a point and its road is walked at the pedestrian speed. A walk with an end farther
 * than MAX_OFF_ROAD_METRES from any pedestrian road (the graph does not cover it) is measured
 * straight-line instead (walk-model.ts); a walk between two covered ends that the roads cannot
 * make within the limit is no walk at all.
 */
import { costModel, PEDESTRIAN_KMH, type CostModel } from '../../routing/cost-model.ts';
import { endpointOnEdge, type Endpoint } from '../../routing/endpoints.ts';
import type { RoadNetwork } from '../../routing/release.ts';
import { routeGeometry } from '../../routing/route-geometry.ts';
import { searchMany, type TurnRule } from '../../routing/search.ts';
import { graphTurnRule } from '../../routing/turn-rule.ts';
import { WALK_DETOUR_FACTOR, walkMetres, walkSeconds } from './walk-model.ts';

/** A point farther than this from every pedestrian road is off the street network. */
export const MAX_OFF_ROAD_METRES = 500;
const NEAR_ROAD_METRES = 50;
/**
 * A street walk counts only up to this many times its straight-line radius (at the pedestrian
 * speed): the longest walk of the straight-line model, which takes streets as 1.25 × the line.
 */
export const STREET_DETOUR_LIMIT = WALK_DETOUR_FACTOR;
const PEDESTRIAN_MPS = PEDESTRIAN_KMH / 3.6;

export interface Walk {
  seconds: number;
  metres: number;
  /** A street walk's line from `from` to the target, built on demand (absent for a straight walk). */
  line?: () => [number, number][];
}

type Point = readonly [number, number];

export interface OnRoad {
  endpoint: Endpoint;
  /** Straight metres from the point to its road. */
  offRoad: number;
}

/** The straight-line walk between two points (walk-model.ts). */
export function straightWalk(from: Point, to: Point): Walk {
  const metres = walkMetres(from, to);
  return { seconds: walkSeconds(metres), metres };
}

/** Seconds a street walk may take when its ends are at most `radiusMetres` apart in a straight line. */
export function streetLimitSeconds(radiusMetres: number): number {
  return Math.ceil((STREET_DETOUR_LIMIT * radiusMetres) / PEDESTRIAN_MPS);
}

export class StreetWalks {
  readonly model: CostModel;
  private readonly turnRule: TurnRule;

  constructor(readonly roads: RoadNetwork) {
    this.model = costModel(roads.graph, 'pedestrian', { useHills: 1 });
    this.turnRule = graphTurnRule(roads.graph, 'pedestrian');
  }

  /** Where a point joins the pedestrian roads, or null when it is off the street network. */
  onRoad(point: Point): OnRoad | null {
    // The near radius first: a wide one returns every road piece around (the cost of a snap).
    const hit = this.roads.snap.snap(point[0], point[1], this.model, NEAR_ROAD_METRES)
      ?? this.roads.snap.snap(point[0], point[1], this.model, MAX_OFF_ROAD_METRES);
    return hit ? { endpoint: endpointOnEdge(this.model, hit.edge, hit.fraction), offRoad: hit.distanceMetres } : null;
  }

  /**
   * The walk from `from` to each target: along the roads when both ends are on them (null when
   * the roads take longer than maxSeconds), else straight-line. The road positions of the
   * targets (`known`) and of `from` (`start`) may come already found.
   */
  walks(from: Point, targets: readonly Point[], maxSeconds: number, known?: readonly (OnRoad | null)[], start: OnRoad | null = this.onRoad(from)): (Walk | null)[] {
    const ends = targets.map((t, i) => (known ? known[i]! : this.onRoad(t)));
    const out: (Walk | null)[] = targets.map((t) => straightWalk(from, t));
    if (!start || start.endpoint.length === 0) return out;
    const onRoads = ends.flatMap((end, i) => (end && end.endpoint.length > 0 ? [i] : []));
    if (onRoads.length === 0) return out;
    const routes = searchMany(this.model, start.endpoint, onRoads.map((i) => ends[i]!.endpoint), { turnRule: this.turnRule, maxCost: maxSeconds });
    onRoads.forEach((i, k) => {
      const route = routes[k];
      const offRoad = start.offRoad + ends[i]!.offRoad;
      const seconds = route ? Math.ceil(route.seconds + offRoad / PEDESTRIAN_MPS - 1e-6) : Infinity;
      const target = targets[i]!;
      out[i] = route && seconds <= maxSeconds
        ? { seconds, metres: route.metres + offRoad, line: () => [[from[0], from[1]], ...routeGeometry(this.roads.graph, route), [target[0], target[1]]] }
        : null;
    });
    return out;
  }

  /**
   * The line a street walk of at most maxSeconds follows: from `from` straight to its road, along
   * the roads, straight on to `to`; null when either end is off the street network or the roads
   * do not join them within maxSeconds.
   */
  line(from: Point, to: Point, maxSeconds: number): [number, number][] | null {
    const a = this.onRoad(from);
    const b = this.onRoad(to);
    if (!a || !b || a.endpoint.length === 0 || b.endpoint.length === 0) return null;
    const [route] = searchMany(this.model, a.endpoint, [b.endpoint], { turnRule: this.turnRule, aStarTarget: [to[0], to[1]], maxCost: maxSeconds });
    return route ? [[from[0], from[1]], ...routeGeometry(this.roads.graph, route), [to[0], to[1]]] : null;
  }
}

const walkers = new WeakMap<RoadNetwork, StreetWalks>();

/** The street walker of an opened roads release (one per release). */
export function streetWalks(roads: RoadNetwork): StreetWalks {
  let walker = walkers.get(roads);
  if (!walker) walkers.set(roads, (walker = new StreetWalks(roads)));
  return walker;
}

