/**
 * The messages of the published OptimizeToursRequest format that the request may contain, with
 * every field name (camelCase) and how to descend into it. normalize.ts walks the body with it;
 * a name not listed is an unknown field. Fields marked 'opaque' are refused by the checker, so
 * their content is never read (and map keys inside them are never touched).
 */

export type FieldKind =
  | 'scalar'
  | 'opaque'
  | { message: MessageName }
  | { list: MessageName }
  /** map<string, message>: keys are the caller's names (load types), never converted. */
  | { map: MessageName };

export type MessageName =
  | 'Request' | 'Model' | 'Shipment' | 'VisitRequest' | 'LatLng' | 'Waypoint' | 'Location' | 'TimeWindow'
  | 'Load' | 'Vehicle' | 'RouteModifiers' | 'LoadLimit' | 'DurationLimit' | 'DistanceLimit' | 'BreakRule'
  | 'BreakRequest' | 'DurationDistanceMatrix' | 'Row';

const s = 'scalar' as const;
const o = 'opaque' as const;
const message = (name: MessageName) => ({ message: name });
const list = (name: MessageName) => ({ list: name });
const map = (name: MessageName) => ({ map: name });

export const MESSAGES: Readonly<Record<MessageName, Readonly<Record<string, FieldKind>>>> = {
  Request: {
    parent: s, timeout: s, model: message('Model'), solvingMode: s, searchMode: s,
    injectedFirstSolutionRoutes: o, injectedSolutionConstraint: o, refreshDetailsRoutes: o, interpretInjectedSolutionsUsingLabels: s,
    considerRoadTraffic: s, populatePolylines: s, populateTransitionPolylines: s, allowLargeDeadlineDespiteInterruptionRisk: s,
    useGeodesicDistances: s, label: s, geodesicMetersPerSecond: s, maxValidationErrors: s, populateTravelStepPolylines: s,
  },
  Model: {
    shipments: list('Shipment'), vehicles: list('Vehicle'), maxActiveVehicles: s, globalStartTime: s, globalEndTime: s,
    globalDurationCostPerHour: s, durationDistanceMatrices: list('DurationDistanceMatrix'), durationDistanceMatrixSrcTags: s,
    durationDistanceMatrixDstTags: s, transitionAttributes: o, shipmentTypeIncompatibilities: o, shipmentTypeRequirements: o,
    precedenceRules: o, breakRules: o,
  },
  Shipment: {
    displayName: s, pickups: list('VisitRequest'), deliveries: list('VisitRequest'), loadDemands: map('Load'),
    allowedVehicleIndices: s, costsPerVehicle: s, costsPerVehicleIndices: s, pickupToDeliveryAbsoluteDetourLimit: s,
    pickupToDeliveryTimeLimit: s, pickupToDeliveryRelativeDetourLimit: s, shipmentType: s, label: s, ignore: s,
    penaltyCost: s, demands: o,
  },
  VisitRequest: {
    arrivalLocation: message('LatLng'), arrivalWaypoint: message('Waypoint'), departureLocation: message('LatLng'),
    departureWaypoint: message('Waypoint'), tags: s, timeWindows: list('TimeWindow'), duration: s, cost: s,
    loadDemands: o, visitTypes: s, label: s, avoidUTurns: s, demands: o,
  },
  LatLng: { latitude: s, longitude: s },
  Waypoint: { location: message('Location'), placeId: s, sideOfRoad: s, vehicleStopover: s },
  Location: { latLng: message('LatLng'), heading: s },
  TimeWindow: {
    startTime: s, endTime: s, softStartTime: s, softEndTime: s, costPerHourBeforeSoftStartTime: s, costPerHourAfterSoftEndTime: s,
  },
  Load: { amount: s },
  Vehicle: {
    displayName: s, travelMode: s, routeModifiers: message('RouteModifiers'), startLocation: message('LatLng'),
    startWaypoint: message('Waypoint'), endLocation: message('LatLng'), endWaypoint: message('Waypoint'), startTags: s,
    endTags: s, startTimeWindows: list('TimeWindow'), endTimeWindows: list('TimeWindow'), unloadingPolicy: s,
    loadLimits: map('LoadLimit'), costPerHour: s, costPerTraveledHour: s, costPerKilometer: s, fixedCost: s,
    usedIfRouteIsEmpty: s, routeDurationLimit: message('DurationLimit'), travelDurationLimit: message('DurationLimit'),
    routeDistanceLimit: message('DistanceLimit'), extraVisitDurationForVisitType: o, breakRule: message('BreakRule'),
    label: s, ignore: s, travelDurationMultiple: s, svcProfile: s, capacities: o, startLoadIntervals: o,
    endLoadIntervals: o, breakRuleIndices: o,
  },
  RouteModifiers: { avoidTolls: s, avoidHighways: s, avoidFerries: s, avoidIndoor: s },
  LoadLimit: { maxLoad: s, softMaxLoad: s, costPerUnitAboveSoftMax: s, startLoadInterval: o, endLoadInterval: o },
  DurationLimit: {
    maxDuration: s, softMaxDuration: s, quadraticSoftMaxDuration: s, costPerHourAfterSoftMax: s, costPerSquareHourAfterQuadraticSoftMax: s,
  },
  DistanceLimit: { maxMeters: s, softMaxMeters: s, costPerKilometerBelowSoftMax: s, costPerKilometerAboveSoftMax: s },
  BreakRule: { breakRequests: list('BreakRequest'), frequencyConstraints: o },
  BreakRequest: { earliestStartTime: s, latestStartTime: s, minDuration: s },
  DurationDistanceMatrix: { rows: list('Row'), vehicleStartTag: s },
  Row: { durations: s, meters: s },
};

/** Proto3 JSON: a field may be spelt by its proto name (snake_case) or its JSON name (lowerCamelCase). */
export function camelCase(name: string): string {
  return name.replace(/_+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase());
}

/** Field paths as the issues name them: `model.shipments[3].pickups[0].timeWindows[0].endTime`. */
export const fieldPath = (parent: string, name: string): string => (parent ? `${parent}.${name}` : name);
export const indexPath = (parent: string, index: number): string => `${parent}[${index}]`;
export const keyPath = (parent: string, key: string): string => `${parent}[${JSON.stringify(key)}]`;
