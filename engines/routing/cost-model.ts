/**
 * Cost models: which directed edges a travel mode may use, how long they take, and what they
 * cost once the caller's preferences are applied. The search orders by `cost`, reports `seconds`.
 *
 * Preferences follow Valhalla's costing (src/sif/autocost.cc, truckcost.cc) where the spec borrows
 * its parameters; all of them are multiplicative factors on an edge's seconds:
 * - use_highways (0..1, default 0.5): Valhalla's non-linear highway factor h — for u ≥ 0.5
 *   h = (0.5 − u)³ (down to −0.125 at 1, a slight preference), else h = 8·(1 − 2u)² (up to 8 at 0);
 *   motorway edges cost × (1 + h), trunk edges × (1 + h/2), other classes are untouched.
 * - avoid=highways is use_highways = 0 (the spec rejects the two together).
 * - avoid=tolls: toll edges × 5 (Valhalla's use_tolls = 0 adds 4 to the factor).
 * - avoid=ferries: ferry edges × 100, so a ferry is only taken when every alternative costs a
 *   hundred times the crossing (a preference, not an exclusion: islands stay reachable).
 * - use_truck_route (0..1, truck only): edges that are not designated truck routes × (1 + 4u),
 *   so at 1 they are avoided where a truck route exists.
 * - Grades (bicycle and pedestrian only; hills.ts): an edge's travel time follows its stored
 *   grade (slower uphill, a little faster on gentle descents), and use_hills u (0..1, defaults
 *   0.25 bicycle, 0.5 pedestrian) adds a hill-avoidance term: cost × (1 + (1 − u)·strength(grade)).
 *   Driving has no grade term. A graph built without a terrain release has every grade 0: flat.
 * Truck dimensions and weights are hard limits (an edge whose stored limit is below the vehicle's
 * is not allowed); axle_count is accepted but no stored limit reads it.
 */
import { EDGE_FLAG, modeBit, type GraphArrays } from './graph-format.ts';
import { GRADE_OFFSET, GRADE_SLOTS, hillFactors, hillSpeeds, maxGradeSpeedFactor, resolveUseHills } from './hills.ts';
import { ROAD_CLASSES, type Mode } from './modes.ts';
import type { RoadGraph } from './road-graph.ts';

export { DEFAULT_USE_HILLS } from './hills.ts';

export const BICYCLE_KMH = 18;
export const PEDESTRIAN_KMH = 5;
export const DEFAULT_USE_HIGHWAYS = 0.5;
export const AVOID_TOLLS_FACTOR = 5;
export const AVOID_FERRIES_FACTOR = 100;
export const TRUCK_ROUTE_PENALTY = 4;
/** Valhalla's kMaxHighwayBiasFactor. */
const MAX_HIGHWAY_BIAS = 8;

export interface TruckSpec {
  /** Metres. */
  height: number;
  width: number;
  length: number;
  /** Tonnes gross. */
  weight: number;
  /** Tonnes per axle. */
  axleLoad: number;
  axleCount: number;
  hazmat: boolean;
  /** 0..1. */
  useTruckRoute: number;
}

/** The spec's truck defaults (volume 3, Routing). */
export const TRUCK_DEFAULTS: Readonly<TruckSpec> = Object.freeze({
  height: 4.11, width: 2.6, length: 21.64, weight: 21.77, axleLoad: 9.07, axleCount: 5, hazmat: false, useTruckRoute: 0,
});

export interface CostOptions {
  avoidTolls?: boolean;
  avoidHighways?: boolean;
  avoidFerries?: boolean;
  /** Ferries not allowed at all (isochrones: the area reachable without a ferry). */
  excludeFerries?: boolean;
  /** 0..1, driving modes; DEFAULT_USE_HIGHWAYS when absent. */
  useHighways?: number;
  /** 0..1, bicycle and pedestrian (DEFAULT_USE_HILLS when absent); ignored by the driving modes. */
  useHills?: number;
  /** mode truck: the vehicle (TRUCK_DEFAULTS for what is absent). */
  truck?: Partial<TruckSpec>;
}

export interface CostModel {
  readonly mode: Mode;
  readonly graph: RoadGraph;
  /** The mode may use the edge in its direction (truck: within every hard limit). */
  allowed(edge: number): boolean;
  /** Travel time of the whole edge. */
  seconds(edge: number): number;
  /** seconds × preference factors: what the search minimises. */
  cost(edge: number): number;
  /** A lower bound of cost per metre of straight-line distance: the A* factor. */
  readonly minCostPerMetre: number;
  /** The smallest factor cost/seconds any edge can have (below 1 only when use_highways > 0.5 favours highways). */
  readonly minCostFactor: number;
  /** The use_hills in effect (the mode's default when absent); null for the driving modes. */
  readonly useHills: number | null;
  /** Every edge's cost is exactly its seconds (no factor other than 1 applies): searches may compute one. */
  readonly costIsSeconds: boolean;
}

/** Valhalla's highway bias h for use_highways u. */
export function highwayBias(useHighways: number): number {
  if (useHighways >= 0.5) {
    const f = 0.5 - useHighways;
    return f * f * f;
  }
  const f = 1 - 2 * useHighways;
  return MAX_HIGHWAY_BIAS * f * f;
}

const MOTORWAY = ROAD_CLASSES.indexOf('motorway');
const TRUNK = ROAD_CLASSES.indexOf('trunk');
/** Tenths as stored (graph-format encodeTenths); a vehicle passes when its size ≤ the limit. */
const exceeds = (vehicle: number, storedTenths: number): boolean => storedTenths !== 0 && vehicle > storedTenths / 10 + 1e-9;

const maxSpeedCache = new WeakMap<RoadGraph, Float64Array>();

/** Fastest metres per second of each mode (index in MODES) over the graph's edges, ferries included. */
function maxSpeeds(graph: RoadGraph): Float64Array {
  let speeds = maxSpeedCache.get(graph);
  if (speeds) return speeds;
  const a = graph.arrays;
  speeds = new Float64Array(4);
  speeds[2] = BICYCLE_KMH / 3.6;
  speeds[3] = PEDESTRIAN_KMH / 3.6;
  // The fastest grade each of bicycle and pedestrian meets (gentle descents are faster than flat).
  const fastest = [new Float64Array(GRADE_SLOTS), new Float64Array(GRADE_SLOTS)] as const;
  for (let e = 0; e < graph.edgeCount; e++) {
    const access = a.edgeAccess[e]!;
    const slot = a.edgeGrade[e]! + GRADE_OFFSET;
    if (access & 4) fastest[0][slot] = 1;
    if (access & 8) fastest[1][slot] = 1;
    const ferrySeconds = a.edgeFerrySeconds[e]!;
    if ((a.edgeFlags[e]! & EDGE_FLAG.ferry) !== 0 && ferrySeconds > 0) {
      const v = a.edgeLength[e]! / ferrySeconds;
      for (let m = 0; m < 4; m++) if (access & (1 << m) && v > speeds[m]!) speeds[m] = v;
      continue;
    }
    if (access & 1) speeds[0] = Math.max(speeds[0]!, a.edgeSpeedAuto[e]! / 3.6);
    if (access & 2) speeds[1] = Math.max(speeds[1]!, a.edgeSpeedTruck[e]! / 3.6);
  }
  speeds[2] = Math.max(speeds[2]!, (BICYCLE_KMH / 3.6) * maxGradeSpeedFactor('bicycle', fastest[0]));
  speeds[3] = Math.max(speeds[3]!, (PEDESTRIAN_KMH / 3.6) * maxGradeSpeedFactor('pedestrian', fastest[1]));
  maxSpeedCache.set(graph, speeds);
  return speeds;
}

class EdgeCostModel implements CostModel {
  readonly minCostPerMetre: number;
  readonly minCostFactor: number;
  readonly useHills: number | null;
  readonly costIsSeconds: boolean;
  private readonly a: GraphArrays;
  private readonly bit: number;
  private readonly motor: boolean;
  /** Bicycle and pedestrian, by edgeGrade + GRADE_OFFSET: metres per second, and the use_hills cost factor. */
  private readonly hillMps: Float64Array;
  private readonly hillFactor: Float64Array;
  private readonly motorwayFactor: number;
  private readonly trunkFactor: number;
  private readonly tollFactor: number;
  private readonly ferryFactor: number;
  private readonly nonTruckRouteFactor: number;
  private readonly truck: TruckSpec | null;
  private readonly ferriesAllowed: boolean;

  constructor(readonly graph: RoadGraph, readonly mode: Mode, options: CostOptions) {
    this.a = graph.arrays;
    this.bit = modeBit(mode);
    this.motor = mode === 'auto' || mode === 'truck';
    this.useHills = this.motor ? null : resolveUseHills(mode, options.useHills);
    this.hillMps = this.motor ? new Float64Array(0) : hillSpeeds(mode, (mode === 'bicycle' ? BICYCLE_KMH : PEDESTRIAN_KMH) / 3.6);
    this.hillFactor = this.motor ? new Float64Array(0) : hillFactors(mode, this.useHills!);
    const bias = this.motor ? highwayBias(options.avoidHighways ? 0 : options.useHighways ?? DEFAULT_USE_HIGHWAYS) : 0;
    this.motorwayFactor = 1 + bias;
    this.trunkFactor = 1 + bias / 2;
    this.tollFactor = options.avoidTolls ? AVOID_TOLLS_FACTOR : 1;
    this.ferryFactor = options.avoidFerries ? AVOID_FERRIES_FACTOR : 1;
    this.truck = mode === 'truck' ? { ...TRUCK_DEFAULTS, ...options.truck } : null;
    this.nonTruckRouteFactor = this.truck ? 1 + TRUCK_ROUTE_PENALTY * this.truck.useTruckRoute : 1;
    this.ferriesAllowed = !options.excludeFerries;
    const factors = [this.motorwayFactor, this.trunkFactor, this.tollFactor, this.ferryFactor, this.nonTruckRouteFactor, ...this.hillFactor];
    this.costIsSeconds = factors.every((f) => f === 1);
    // Hill factors are ≥ 1, so they leave the bound at 1 for bicycle and pedestrian.
    this.minCostFactor = Math.min(1, this.motorwayFactor, this.trunkFactor);
    // Slack for the float32 edge lengths against float64 straight-line distances.
    this.minCostPerMetre = (this.minCostFactor / maxSpeeds(graph)[MODE_INDEX[mode]]!) * 0.999;
  }

  allowed(edge: number): boolean {
    const a = this.a;
    if ((a.edgeAccess[edge]! & this.bit) === 0) return false;
    const ferry = (a.edgeFlags[edge]! & EDGE_FLAG.ferry) !== 0;
    if (ferry && !this.ferriesAllowed) return false;
    if (this.motor && !ferry && (this.mode === 'auto' ? a.edgeSpeedAuto[edge]! : a.edgeSpeedTruck[edge]!) === 0) return false;
    const t = this.truck;
    if (t === null) return true;
    return !(
      exceeds(t.height, a.edgeMaxHeight[edge]!) || exceeds(t.width, a.edgeMaxWidth[edge]!)
      || exceeds(t.length, a.edgeMaxLength[edge]!) || exceeds(t.weight, a.edgeMaxWeight[edge]!)
      || exceeds(t.axleLoad, a.edgeMaxAxleLoad[edge]!)
      || (t.hazmat && (a.edgeFlags[edge]! & EDGE_FLAG.hazmatForbidden) !== 0)
    );
  }

  seconds(edge: number): number {
    const a = this.a;
    if ((a.edgeFlags[edge]! & EDGE_FLAG.ferry) !== 0 && a.edgeFerrySeconds[edge]! > 0) return a.edgeFerrySeconds[edge]!;
    const length = a.edgeLength[edge]!;
    if (!this.motor) return length / this.hillMps[a.edgeGrade[edge]! + GRADE_OFFSET]!;
    const kmh = this.mode === 'auto' ? a.edgeSpeedAuto[edge]! : a.edgeSpeedTruck[edge]!;
    return (length * 3.6) / kmh;
  }

  cost(edge: number): number {
    const a = this.a;
    const flags = a.edgeFlags[edge]!;
    let factor = 1;
    if (this.motor) {
      const cls = a.edgeClass[edge]!;
      if (cls === MOTORWAY) factor = this.motorwayFactor;
      else if (cls === TRUNK) factor = this.trunkFactor;
      if (flags & EDGE_FLAG.toll) factor *= this.tollFactor;
      if (!(flags & EDGE_FLAG.truckRoute)) factor *= this.nonTruckRouteFactor;
    } else {
      factor = this.hillFactor[a.edgeGrade[edge]! + GRADE_OFFSET]!;
    }
    if (flags & EDGE_FLAG.ferry) factor *= this.ferryFactor;
    return this.seconds(edge) * factor;
  }
}

const MODE_INDEX: Record<Mode, number> = { auto: 0, truck: 1, bicycle: 2, pedestrian: 3 };

/** The cost model of a mode with the caller's preferences (mode car is auto: map it before). */
export function costModel(graph: RoadGraph, mode: Mode, options: CostOptions = {}): CostModel {
  return new EdgeCostModel(graph, mode, options);
}
