/**
 * The solver's view of a fleet-optimization request (volume 3 "Optimization"): indices instead of
 * names, seconds from the model's global start instead of timestamps, metres, and one travel
 * matrix per vehicle profile. The API's adapter builds it from the request; the solver
 * (`solver/`) reads nothing else, so a Problem can be copied to a worker thread as it is.
 */

/**
 * A hard window [start, end] with optional soft bounds: seconds from the global start here, epoch
 * seconds in the checked request (request-model.ts), which shares this shape and the limits below.
 */
export interface TimeWindow {
  start: number;
  end: number;
  /** Arriving (or starting) before softStart costs costPerHourBeforeSoftStart per hour early. */
  softStart?: number;
  costPerHourBeforeSoftStart?: number;
  /** Arriving (or ending) after softEnd costs costPerHourAfterSoftEnd per hour late. */
  softEnd?: number;
  costPerHourAfterSoftEnd?: number;
}

/** One pickup or delivery of a shipment. */
export interface Visit {
  /** Index into the vehicle's matrix rows and columns. */
  location: number;
  /** Service seconds. */
  duration: number;
  /** Hard windows on the visit's start, sorted and disjoint; empty means any time in the horizon. */
  windows: TimeWindow[];
}

export interface Shipment {
  /** Null: delivery only (loaded at the vehicle's start). */
  pickup: Visit | null;
  /** Null: pickup only (carried to the vehicle's end). With both, the same vehicle does pickup first. */
  delivery: Visit | null;
  /** Amount per load type (index into Problem.loadTypes); missing types are 0. */
  demand: number[];
  /** Null: mandatory. Otherwise the cost of leaving it unperformed. */
  penaltyCost: number | null;
  /** Null: any vehicle. Otherwise the vehicle indices allowed. */
  allowedVehicles: number[] | null;
}

export interface LoadLimit {
  /** Hard maximum (Infinity when unbounded). */
  max: number;
  softMax?: number;
  costPerUnitAboveSoftMax?: number;
}

export interface DurationLimit {
  /** Hard maximum seconds (Infinity when unbounded). */
  max: number;
  softMax?: number;
  costPerHourAfterSoftMax?: number;
}

export interface DistanceLimit {
  /** Hard maximum metres (Infinity when unbounded). */
  max: number;
  softMax?: number;
  costPerKilometerAboveSoftMax?: number;
}

/** A break the vehicle must take once it is used: start in [earliestStart, latestStart], last minDuration (request: epoch seconds). */
export interface BreakRequest {
  earliestStart: number;
  latestStart: number;
  minDuration: number;
}

export interface Vehicle {
  /** Index into Problem.matrices. */
  matrix: number;
  /** Null: the route starts at its first visit (open start). */
  start: number | null;
  /** Null: the route ends at its last visit (open end). */
  end: number | null;
  /** The route's start time window (defaults to the horizon). */
  startWindow: TimeWindow;
  /** The route's end time window (defaults to the horizon). */
  endWindow: TimeWindow;
  /** One per load type (index into Problem.loadTypes); missing types are unlimited. */
  loadLimits: LoadLimit[];
  /** Paid once when the vehicle performs at least one visit. */
  fixedCost: number;
  /** Per hour of route duration (end time minus start time). */
  costPerHour: number;
  /** Per hour of travel. */
  costPerTraveledHour: number;
  costPerKilometer: number;
  routeDurationLimit: DurationLimit;
  travelDurationLimit: DurationLimit;
  routeDistanceLimit: DistanceLimit;
  breaks: BreakRequest[];
}

/** Travel seconds and metres, row-major size × size. */
export interface TravelMatrix {
  size: number;
  durations: Float64Array;
  distances: Float64Array;
}

export interface Problem {
  /** Seconds of the horizon: every time lies in [0, horizon]. */
  horizon: number;
  loadTypes: string[];
  matrices: TravelMatrix[];
  vehicles: Vehicle[];
  shipments: Shipment[];
}

/** One stop of a solved route. */
export interface RouteStop {
  shipment: number;
  isPickup: boolean;
}

export interface Solution {
  /** One per vehicle, in vehicle order; an unused vehicle has no stops. */
  routes: RouteStop[][];
  /** Shipments left unperformed (optional ones only, unless the search failed to place a mandatory one). */
  skipped: number[];
  /** Sum of route costs and penalties of skipped shipments (mandatory ones count as Infinity). */
  cost: number;
  /** The time cap ended the first construction: skipped shipments may never have been tried. */
  unfinished?: boolean;
}

export type SearchMode = 'RETURN_FAST' | 'CONSUME_ALL_AVAILABLE_TIME';

export interface SolveOptions {
  /** Wall-clock cap in milliseconds. */
  timeLimitMs: number;
  searchMode: SearchMode;
  /** The search is deterministic for a seed (and the work it gets done within the time cap). */
  seed: number;
  /** Date.now() by which the search must end: one that starts late (queued, worker starting) gets only what is left. */
  deadline?: number;
}

/**
 * The keys of metrics.costs and routeCosts (the request field each cost comes from, in the
 * published format's snake_case path form). Skipped optional shipments cost PENALTY.
 */
export const COST_KEYS = {
  fixed: 'model.vehicles.fixed_cost',
  perHour: 'model.vehicles.cost_per_hour',
  perTraveledHour: 'model.vehicles.cost_per_traveled_hour',
  perKilometer: 'model.vehicles.cost_per_kilometer',
  routeDurationSoftMax: 'model.vehicles.route_duration_limit.cost_per_hour_after_soft_max',
  travelDurationSoftMax: 'model.vehicles.travel_duration_limit.cost_per_hour_after_soft_max',
  routeDistanceSoftMax: 'model.vehicles.route_distance_limit.cost_per_kilometer_above_soft_max',
  loadSoftMax: 'model.vehicles.load_limits.cost_per_unit_above_soft_max',
  startBeforeSoftStart: 'model.vehicles.start_time_windows.cost_per_hour_before_soft_start_time',
  startAfterSoftEnd: 'model.vehicles.start_time_windows.cost_per_hour_after_soft_end_time',
  endBeforeSoftStart: 'model.vehicles.end_time_windows.cost_per_hour_before_soft_start_time',
  endAfterSoftEnd: 'model.vehicles.end_time_windows.cost_per_hour_after_soft_end_time',
  pickupBeforeSoftStart: 'model.shipments.pickups.time_windows.cost_per_hour_before_soft_start_time',
  pickupAfterSoftEnd: 'model.shipments.pickups.time_windows.cost_per_hour_after_soft_end_time',
  deliveryBeforeSoftStart: 'model.shipments.deliveries.time_windows.cost_per_hour_before_soft_start_time',
  deliveryAfterSoftEnd: 'model.shipments.deliveries.time_windows.cost_per_hour_after_soft_end_time',
  penalty: 'model.shipments.penalty_cost',
} as const;

/** The move from one stop (or the route's start) to the next (or the route's end). */
export interface ScheduledTransition {
  startTime: number;
  travelDuration: number;
  travelDistance: number;
  waitDuration: number;
  breakDuration: number;
  /** Always 0 here: the format's transition delays are not in the model. */
  delayDuration: number;
  totalDuration: number;
}

export interface ScheduledVisit extends RouteStop {
  startTime: number;
  /** For the delivery of a pair: its start minus (pickup start + pickup service + direct travel). Else 0. */
  detour: number;
}

/** A used vehicle's timed route; an unused vehicle has none. */
export interface RouteSchedule {
  vehicleStartTime: number;
  vehicleEndTime: number;
  visits: ScheduledVisit[];
  /** visits.length + 1. */
  transitions: ScheduledTransition[];
  breaks: { startTime: number; duration: number }[];
  metrics: {
    performedShipmentCount: number;
    travelDuration: number;
    waitDuration: number;
    delayDuration: number;
    breakDuration: number;
    visitDuration: number;
    totalDuration: number;
    travelDistanceMeters: number;
  };
  /** Non-zero components by COST_KEYS value. */
  costs: Record<string, number>;
  totalCost: number;
}
