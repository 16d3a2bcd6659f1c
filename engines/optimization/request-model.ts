/**
 * A fully parsed and checked Optimization request (volume 3): what `api/params/optimization/`
 * yields and the engine's adapter turns into a solver `Problem`. Times are epoch seconds
 * (fractions allowed), durations seconds, distances metres, loads plain numbers, enums by name,
 * every default filled in. Names follow the published format (camelCase).
 */

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

/** Hard window [start, end] with optional soft bounds; epoch seconds. */
export interface TimeWindow {
  start: number;
  end: number;
  softStart?: number;
  costPerHourBeforeSoftStart?: number;
  softEnd?: number;
  costPerHourAfterSoftEnd?: number;
}

export interface Visit {
  place: Place;
  /** Service seconds. */
  duration: number;
  /** Sorted and disjoint; empty means the global window. Soft bounds only when there is one. */
  timeWindows: TimeWindow[];
  tags: string[];
  label?: string;
}

export interface Shipment {
  label?: string;
  /** Null: delivery only. */
  pickup: Visit | null;
  /** Null: pickup only. At least one of pickup and delivery is set. */
  delivery: Visit | null;
  /** Amount per load type name (absent types are 0). */
  loadDemands: Record<string, number>;
  /** Null: mandatory (unless ignored). */
  penaltyCost: number | null;
  /** Ignored shipments are not planned (still counted by the plan limits). */
  ignore: boolean;
  /** Null: any vehicle. Otherwise distinct indices into vehicles. */
  allowedVehicleIndices: number[] | null;
}

export interface LoadLimit {
  /** Infinity when absent. */
  max: number;
  softMax?: number;
  costPerUnitAboveSoftMax?: number;
}

export interface DurationLimit {
  /** Seconds; Infinity when absent. */
  max: number;
  softMax?: number;
  costPerHourAfterSoftMax?: number;
}

export interface DistanceLimit {
  /** Metres; Infinity when absent. */
  max: number;
  softMax?: number;
  costPerKilometerAboveSoftMax?: number;
}

/** Epoch seconds; the break starts in [earliestStart, latestStart] and lasts minDuration seconds. */
export interface BreakRequest {
  earliestStart: number;
  latestStart: number;
  minDuration: number;
}

export interface Vehicle {
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
export type SearchMode = 'RETURN_FAST' | 'CONSUME_ALL_AVAILABLE_TIME';

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
  shipments: Shipment[];
  vehicles: Vehicle[];
  /** Distinct load type names of loadDemands and loadLimits, in order of first appearance (at most 16). */
  loadTypes: string[];
}
