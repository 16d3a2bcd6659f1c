/**
 * A fully parsed and checked Optimization request (volume 3): what `request/check.ts`
 * yields and the engine's adapter turns into a solver `Problem`. Times are epoch seconds
 * (fractions allowed), durations seconds, distances metres, loads plain numbers, enums by name,
 * every default filled in. Names follow the published format (camelCase).
 *
 * Windows, limits and breaks share their shapes with the solver's Problem (problem.ts); here their
 * times are epoch seconds. Visit, Shipment and Vehicle differ between the two stages, so the
 * request's are RequestVisit, RequestShipment and RequestVehicle.
 */
import type { BreakRequest, DistanceLimit, DurationLimit, LoadLimit, SearchMode, TimeWindow } from './problem.ts';

export interface LatLng {
  latitude: number;
  longitude: number;
}

/**
 * Where a visit, a vehicle start or a vehicle end is. With own matrices a place is the row (src)
 * and column (dst) of its tags in durationDistanceMatrixSrcTags / DstTags: a visit has both, a
 * vehicle start only a row (dst null), a vehicle end only a column (src null).
 */
export type Place =
  | { kind: 'coordinates'; latLng: LatLng }
  | { kind: 'tags'; src: number | null; dst: number | null };

export interface RequestVisit {
  place: Place;
  /** Service seconds. */
  duration: number;
  /** Sorted and disjoint; empty means the global window. Soft bounds only when there is one. */
  timeWindows: TimeWindow[];
  tags: string[];
  label?: string;
}

export interface RequestShipment {
  label?: string;
  /** Null: delivery only. */
  pickup: RequestVisit | null;
  /** Null: pickup only. At least one of pickup and delivery is set. */
  delivery: RequestVisit | null;
  /** Amount per load type name (absent types are 0). */
  loadDemands: Record<string, number>;
  /** Null: mandatory (unless ignored). */
  penaltyCost: number | null;
  /** Ignored shipments are not planned (still counted by the plan limits). */
  ignore: boolean;
  /** Null: any vehicle. Otherwise distinct indices into vehicles. */
  allowedVehicleIndices: number[] | null;
}

export interface RequestVehicle {
  label?: string;
  /** Null: open start (the route starts at its first visit). */
  start: Place | null;
  /** Null: open end. */
  end: Place | null;
  startTags: string[];
  endTags: string[];
  /** Own matrices: index into travel.matrices; null otherwise. */
  matrix: number | null;
  travelMode: 'DRIVING';
  svcProfile: 'auto';
  /** The global window when none was given. */
  startTimeWindow: TimeWindow;
  endTimeWindow: TimeWindow;
  fixedCost: number;
  costPerHour: number;
  costPerTraveledHour: number;
  costPerKilometer: number;
  /** By load type name; absent types are unlimited. */
  loadLimits: Record<string, LoadLimit>;
  routeDurationLimit: DurationLimit;
  travelDurationLimit: DurationLimit;
  routeDistanceLimit: DistanceLimit;
  /** In request order. */
  breaks: BreakRequest[];
  /** Ignored vehicles get no visits. */
  ignore: boolean;
}

export interface OwnMatrix {
  /** Null: the only matrix, for every vehicle. */
  vehicleStartTag: string | null;
  /** durations[src][dst] seconds. */
  durations: number[][];
  /** meters[src][dst]; zeros where the request left them out (nothing then refers to distance). */
  meters: number[][];
}

export type TravelSource =
  | { kind: 'road' }
  | { kind: 'geodesic'; metersPerSecond: number }
  | { kind: 'matrices'; srcTags: string[]; dstTags: string[]; matrices: OwnMatrix[] };

export type SolvingMode = 'DEFAULT_SOLVE' | 'VALIDATE_ONLY';

export interface OptimizationRequest {
  label?: string;
  solvingMode: SolvingMode;
  /** SEARCH_MODE_UNSPECIFIED is read as RETURN_FAST. */
  searchMode: SearchMode;
  /** Seconds as asked (before the plan's clamp); null: the default budget of rule 5. */
  timeout: number | null;
  maxValidationErrors: number;
  populatePolylines: boolean;
  considerRoadTraffic: boolean;
  travel: TravelSource;
  globalStart: number;
  globalEnd: number;
  shipments: RequestShipment[];
  vehicles: RequestVehicle[];
  /** Distinct load type names of loadDemands and loadLimits, in order of first appearance (at most 16). */
  loadTypes: string[];
}
