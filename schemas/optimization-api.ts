import { Type, type Static, type TProperties, type TSchema } from '@sinclair/typebox';

/**
 * POST /optimize and its :optimizeTours aliases (volume 3 "Optimization"). The request schema
 * documents the camelCase form for /openapi.json only: snake_case names, int64 and enum
 * alternatives and every check are handled by engines/optimization/request/, which answers problems in
 * the format's own shape (validationErrors or a 400 with fieldViolations). So the request schemas
 * allow any extra member and keep leaves loose; a route attaching it should not let a schema
 * mismatch answer first (for example `attachValidation: true`).
 */

/** Volume 1 "Per-account and per-request limits": optimization body. */
export const OPTIMIZATION_BODY_LIMIT_BYTES = 4 * 1024 * 1024;

export const OPTIMIZATION_ERRORS: Readonly<Record<number, string>> = {
  400: 'INVALID_ARGUMENT (a validation issue, named in fieldViolations; or a count limit of the plan) or FAILED_PRECONDITION (a mandatory shipment cannot be performed)',
  404: 'NOT_FOUND: an alias path whose method suffix is not :optimizeTours',
  413: 'the body is over 4 MiB',
  429: 'RESOURCE_EXHAUSTED: too many solves at once (Retry-After), or code quota_exceeded / spend_cap when the quota cannot cover the new shipments',
  504: 'DEADLINE_EXCEEDED: road travel times or the solve overran the 140-second budget',
};

const loose = <T extends TProperties>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: true, ...(description ? { description } : {}) });
const opt = <T extends TSchema>(schema: T) => Type.Optional(schema);

const Duration = Type.Union([
  Type.String({ description: 'Seconds with an "s" suffix: "95s", "1.5s"' }),
  Type.Object({ seconds: opt(Type.Union([Type.String(), Type.Integer()])), nanos: opt(Type.Integer()) }),
], { description: 'proto3 JSON Duration' });
const Timestamp = Type.String({ description: 'RFC 3339 instant, any offset ("2024-05-01T08:00:00-04:00"); answers are UTC' });
const Int64 = Type.Union([Type.String(), Type.Integer()], { description: 'int64: a number or a string of digits' });
const Double = Type.Union([Type.Number(), Type.String()], { description: 'a number (a numeric string is also read)' });
const enumOf = (names: string[]) =>
  Type.Union([Type.String(), Type.Integer()], { description: `By name or number: ${names.map((n, i) => `${n} = ${i}`).join(', ')}` });
const Tags = Type.Array(Type.String());

const LatLng = loose({ latitude: opt(Type.Number()), longitude: opt(Type.Number()) }, 'WGS84 degrees');
const Waypoint = loose({
  location: opt(loose({ latLng: opt(LatLng), heading: opt(Type.Integer()) })),
  placeId: opt(Type.String({ description: 'Refused (FIELD_NOT_SUPPORTED_YET): send coordinates' })),
  sideOfRoad: opt(Type.Boolean({ description: 'Accepted and ignored' })),
  vehicleStopover: opt(Type.Boolean({ description: 'Accepted and ignored' })),
}, 'location.latLng is read as coordinates');

const TimeWindow = loose({
  startTime: opt(Timestamp),
  endTime: opt(Timestamp),
  softStartTime: opt(Timestamp),
  softEndTime: opt(Timestamp),
  costPerHourBeforeSoftStartTime: opt(Double),
  costPerHourAfterSoftEndTime: opt(Double),
}, 'Hard bounds default to the global window; soft bounds lie within the hard ones and need their hourly cost');

const VisitRequest = loose({
  arrivalLocation: opt(LatLng),
  arrivalWaypoint: opt(Waypoint),
  departureLocation: opt(LatLng),
  tags: opt(Type.Array(Type.String(), { description: 'With own matrices: exactly one src and one dst tag place the visit' })),
  duration: opt(Duration),
  timeWindows: opt(Type.Array(TimeWindow, { description: 'Sorted, disjoint; soft bounds only with a single window' })),
  label: opt(Type.String()),
  avoidUTurns: opt(Type.Boolean({ description: 'Accepted and ignored' })),
});

const Shipment = loose({
  label: opt(Type.String()),
  displayName: opt(Type.String({ description: 'Accepted and ignored (label names the shipment in the answer)' })),
  pickups: opt(Type.Array(VisitRequest, { description: 'At most one (alternatives are not supported yet)' })),
  deliveries: opt(Type.Array(VisitRequest, { description: 'At most one (alternatives are not supported yet)' })),
  loadDemands: opt(Type.Record(Type.String(), loose({ amount: opt(Int64) }), { description: 'By load type name (at most 16 names across the model)' })),
  penaltyCost: opt(Double),
  ignore: opt(Type.Boolean()),
  allowedVehicleIndices: opt(Type.Array(Type.Integer())),
});

const LoadLimit = loose({ maxLoad: opt(Int64), softMaxLoad: opt(Int64), costPerUnitAboveSoftMax: opt(Double) });
const DurationLimit = loose({ maxDuration: opt(Duration), softMaxDuration: opt(Duration), costPerHourAfterSoftMax: opt(Double) });
const DistanceLimit = loose({ maxMeters: opt(Int64), softMaxMeters: opt(Int64), costPerKilometerAboveSoftMax: opt(Double) });

const Vehicle = loose({
  label: opt(Type.String()),
  displayName: opt(Type.String({ description: 'Accepted and ignored (label names the vehicle in the answer)' })),
  travelMode: opt(enumOf(['TRAVEL_MODE_UNSPECIFIED', 'DRIVING', 'WALKING (refused)'])),
  travelDurationMultiple: opt(Type.Union([Type.Number(), Type.String()], { description: 'Only 1 (the default) is supported' })),
  unloadingPolicy: opt(enumOf(['UNLOADING_POLICY_UNSPECIFIED', 'LAST_IN_FIRST_OUT (refused)', 'FIRST_IN_FIRST_OUT (refused)'])),
  routeModifiers: opt(loose({
    avoidTolls: opt(Type.Boolean()),
    avoidHighways: opt(Type.Boolean()),
    avoidFerries: opt(Type.Boolean()),
    avoidIndoor: opt(Type.Boolean()),
  }, 'Each avoid flag is refused when true (VALUE_NOT_SUPPORTED_YET)')),
  svcProfile: opt(Type.String({ description: 'Road profile; auto is the only value' })),
  startLocation: opt(LatLng),
  startWaypoint: opt(Waypoint),
  endLocation: opt(LatLng),
  endWaypoint: opt(Waypoint),
  startTags: opt(Tags),
  endTags: opt(Tags),
  startTimeWindows: opt(Type.Array(TimeWindow, { description: 'At most one' })),
  endTimeWindows: opt(Type.Array(TimeWindow, { description: 'At most one' })),
  fixedCost: opt(Double),
  costPerHour: opt(Double),
  costPerTraveledHour: opt(Double),
  costPerKilometer: opt(Double),
  loadLimits: opt(Type.Record(Type.String(), LoadLimit)),
  routeDurationLimit: opt(DurationLimit),
  travelDurationLimit: opt(DurationLimit),
  routeDistanceLimit: opt(DistanceLimit),
  breakRule: opt(loose({
    breakRequests: opt(Type.Array(loose({ earliestStartTime: opt(Timestamp), latestStartTime: opt(Timestamp), minDuration: opt(Duration) }))),
  })),
  ignore: opt(Type.Boolean()),
});

const DurationDistanceMatrix = loose({
  rows: opt(Type.Array(loose({
    durations: opt(Type.Array(Duration, { description: 'One per dst tag' })),
    meters: opt(Type.Array(Type.Number(), { description: 'One per dst tag; may be left out when nothing refers to distance' })),
  }), { description: 'One per src tag' })),
  vehicleStartTag: opt(Type.String({ description: 'Required with several matrices: the vehicles whose startTags name it' })),
});

const ShipmentModel = loose({
  globalStartTime: opt(Timestamp),
  globalEndTime: opt(Timestamp),
  shipments: opt(Type.Array(Shipment)),
  vehicles: opt(Type.Array(Vehicle)),
  durationDistanceMatrices: opt(Type.Array(DurationDistanceMatrix)),
  durationDistanceMatrixSrcTags: opt(Tags),
  durationDistanceMatrixDstTags: opt(Tags),
});

export const OptimizationRequestBody = loose({
  model: opt(ShipmentModel),
  solvingMode: opt(enumOf(['DEFAULT_SOLVE', 'VALIDATE_ONLY', 'DETECT_SOME_INFEASIBLE_SHIPMENTS (refused)'])),
  searchMode: opt(enumOf(['SEARCH_MODE_UNSPECIFIED', 'RETURN_FAST', 'CONSUME_ALL_AVAILABLE_TIME'])),
  timeout: opt(Duration),
  maxValidationErrors: opt(Type.Integer({ description: 'Default 100' })),
  useGeodesicDistances: opt(Type.Boolean()),
  geodesicMetersPerSecond: opt(Type.Number({ description: 'At least 1; required with useGeodesicDistances' })),
  considerRoadTraffic: opt(Type.Boolean({ description: 'Accepted and ignored (warning when true)' })),
  populatePolylines: opt(Type.Boolean()),
  populateTransitionPolylines: opt(Type.Boolean({ description: 'Accepted and ignored (warning when true): only routePolyline is drawn' })),
  populateTravelStepPolylines: opt(Type.Boolean({ description: 'Accepted and ignored' })),
  allowLargeDeadlineDespiteInterruptionRisk: opt(Type.Boolean({ description: 'Accepted and ignored' })),
  parent: opt(Type.String({ description: 'Ignored (warning)' })),
  label: opt(Type.String()),
}, 'OptimizeToursRequest (names camelCase or snake_case)');

/* ---- response (camelCase; what the serializer writes, so every member the reply has is here) ---- */

const DurationOut = Type.String({ description: 'Seconds, such as "95s"' });
const TimestampOut = Type.String({ description: 'RFC 3339 UTC' });

const RouteMetrics = Type.Object({
  performedShipmentCount: Type.Integer(),
  travelDuration: DurationOut,
  waitDuration: DurationOut,
  delayDuration: DurationOut,
  breakDuration: DurationOut,
  visitDuration: DurationOut,
  totalDuration: DurationOut,
  travelDistanceMeters: Type.Number(),
});

const Costs = Type.Record(Type.String(), Type.Number(), { description: 'By cost component, for example model.vehicles.cost_per_kilometer' });

const ShipmentRoute = Type.Object({
  vehicleIndex: Type.Integer(),
  vehicleLabel: opt(Type.String()),
  vehicleStartTime: opt(TimestampOut),
  vehicleEndTime: opt(TimestampOut),
  visits: Type.Array(Type.Object({
    shipmentIndex: Type.Integer(),
    isPickup: Type.Boolean(),
    visitRequestIndex: Type.Integer(),
    startTime: TimestampOut,
    detour: DurationOut,
    shipmentLabel: opt(Type.String()),
  })),
  transitions: Type.Array(Type.Object({
    travelDuration: DurationOut,
    travelDistanceMeters: Type.Number(),
    waitDuration: DurationOut,
    breakDuration: DurationOut,
    delayDuration: DurationOut,
    totalDuration: DurationOut,
    startTime: TimestampOut,
  }), { description: 'One more than visits on a used route' }),
  breaks: opt(Type.Array(Type.Object({ startTime: TimestampOut, duration: DurationOut }))),
  metrics: RouteMetrics,
  routeCosts: Costs,
  routeTotalCost: Type.Number(),
  routePolyline: opt(Type.Object({ points: Type.String({ description: 'Encoded polyline, precision 5, along roads' }) })),
});

export const OptimizationValidationError = Type.Object({
  code: Type.Integer({ description: 'Stable number of displayName (engines/optimization/request/issues.ts)' }),
  displayName: Type.String({ description: 'For example MISSING_REQUIRED_FIELD, INVALID_VALUE, OUT_OF_RANGE, FIELD_NOT_SUPPORTED_YET' }),
  fields: Type.Array(Type.Object({ name: Type.String({ description: 'Field path, such as model.shipments[3].pickups[0].timeWindows[0].endTime' }) })),
  errorMessage: Type.String(),
});

export const OptimizationResponse = Type.Object({
  routes: opt(Type.Array(ShipmentRoute, { description: 'One per vehicle, in request order' })),
  requestLabel: opt(Type.String()),
  skippedShipments: opt(Type.Array(Type.Object({
    index: Type.Integer(),
    label: opt(Type.String()),
    reasons: opt(Type.Array(Type.Object({
      code: Type.String(),
      exampleVehicleIndex: opt(Type.Integer()),
      exampleExceededCapacityType: opt(Type.String()),
    }), { description: 'Absent when no cause is identifiable' })),
  }))),
  validationErrors: opt(Type.Array(OptimizationValidationError, { description: 'VALIDATE_ONLY: the first maxValidationErrors issues' })),
  metrics: opt(Type.Object({
    aggregatedRouteMetrics: RouteMetrics,
    skippedMandatoryShipmentCount: Type.Integer(),
    usedVehicleCount: Type.Integer(),
    earliestVehicleStartTime: opt(TimestampOut),
    latestVehicleEndTime: opt(TimestampOut),
    costs: Costs,
    totalCost: Type.Number({ description: 'Route costs plus penalties of skipped optional shipments (the caller\'s units, not charges)' }),
  })),
  warnings: opt(Type.Array(Type.Object({
    code: Type.String({ description: 'TIMEOUT_CLAMPED or ROUTE_POLYLINE_UNAVAILABLE' }),
    message: Type.String(),
  }))),
}, { title: 'OptimizeToursResponse' });
export type OptimizationResponse = Static<typeof OptimizationResponse>;

export const OPTIMIZATION_STATUSES = ['INVALID_ARGUMENT', 'FAILED_PRECONDITION', 'RESOURCE_EXHAUSTED', 'DEADLINE_EXCEEDED', 'NOT_FOUND'] as const;
export type OptimizationStatus = (typeof OPTIMIZATION_STATUSES)[number];

/** The error body of every Optimization refusal (after the key check). */
export const OptimizationErrorBody = Type.Object({
  error: Type.String({ description: 'Human wording; may change' }),
  code: Type.String({ description: 'The status name, or quota_exceeded / spend_cap for the quota refusals' }),
  status: Type.String({ description: `${OPTIMIZATION_STATUSES.join(', ')}; UNAVAILABLE on a 503` }),
  retryable: opt(Type.Boolean({ description: '503: worth retrying after Retry-After' })),
  fieldViolations: opt(Type.Array(Type.Object({
    field: Type.String({ description: 'Field path of the issue' }),
    description: Type.String(),
  }), { description: '400 INVALID_ARGUMENT for a validation issue: one entry' })),
}, { title: 'OptimizationError' });
export type OptimizationErrorBody = Static<typeof OptimizationErrorBody>;

/** The documented error answers of the Optimization paths. */
export function optimizationErrorResponses(...statuses: number[]): Record<number, typeof OptimizationErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, { ...OptimizationErrorBody, description: OPTIMIZATION_ERRORS[s] }]));
}
