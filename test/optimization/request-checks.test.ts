import { describe, expect, it } from 'vitest';
import { checkOptimizationRequest } from '../../engines/optimization/request/check.ts';
import { ISSUE_CODES } from '../../engines/optimization/request/issues.ts';
import { baseRequest, issuesOf, oneIssue, valid } from './request-fixtures.ts';

type Body = Record<string, any>;
const withBody = (edit: (b: Body) => void): Body => {
  const body = baseRequest();
  edit(body);
  return body;
};

describe('rule 3 refusals', () => {
  const cases: [string, (b: Body) => void, string][] = [
    ['quadratic soft duration', (b) => { b.model.vehicles[0].routeDurationLimit = { quadraticSoftMaxDuration: '3600s', costPerSquareHourAfterQuadraticSoftMax: 1 }; }, 'FIELD_NOT_SUPPORTED_YET model.vehicles[0].routeDurationLimit.quadraticSoftMaxDuration'],
    ['two pickups', (b) => { b.model.shipments[0].pickups.push({ arrivalLocation: { latitude: 45, longitude: -75 } }); }, 'FIELD_NOT_SUPPORTED_YET model.shipments[0].pickups[1]'],
    ['two deliveries', (b) => { b.model.shipments[1].deliveries.push({ arrivalLocation: { latitude: 45, longitude: -75 } }); }, 'FIELD_NOT_SUPPORTED_YET model.shipments[1].deliveries[1]'],
    ['two start windows', (b) => { b.model.vehicles[0].startTimeWindows = [{}, {}]; }, 'FIELD_NOT_SUPPORTED_YET model.vehicles[0].startTimeWindows[1]'],
    ['two end windows', (b) => { b.model.vehicles[1].endTimeWindows = [{}, {}]; }, 'FIELD_NOT_SUPPORTED_YET model.vehicles[1].endTimeWindows[1]'],
    ['shipment type', (b) => { b.model.shipments[0].shipmentType = 'frozen'; }, 'FIELD_NOT_SUPPORTED_YET model.shipments[0].shipmentType'],
    ['type incompatibilities', (b) => { b.model.shipmentTypeIncompatibilities = [{ types: ['a', 'b'] }]; }, 'FIELD_NOT_SUPPORTED_YET model.shipmentTypeIncompatibilities'],
    ['type requirements', (b) => { b.model.shipmentTypeRequirements = [{ requiredShipmentTypeAlternatives: ['a'] }]; }, 'FIELD_NOT_SUPPORTED_YET model.shipmentTypeRequirements'],
    ['precedence rules', (b) => { b.model.precedenceRules = [{ firstIndex: 0, secondIndex: 1 }]; }, 'FIELD_NOT_SUPPORTED_YET model.precedenceRules'],
    ['transition attributes', (b) => { b.model.transitionAttributes = [{ cost: 1 }]; }, 'FIELD_NOT_SUPPORTED_YET model.transitionAttributes'],
    ['max active vehicles', (b) => { b.model.maxActiveVehicles = 1; }, 'FIELD_NOT_SUPPORTED_YET model.maxActiveVehicles'],
    ['injected first solution', (b) => { b.injectedFirstSolutionRoutes = [{ vehicleIndex: 0 }]; }, 'FIELD_NOT_SUPPORTED_YET injectedFirstSolutionRoutes'],
    ['injected constraint', (b) => { b.injectedSolutionConstraint = { routes: [] , skippedShipments: [{ index: 0 }] }; }, 'FIELD_NOT_SUPPORTED_YET injectedSolutionConstraint'],
    ['refresh details', (b) => { b.refreshDetailsRoutes = [{}]; }, 'FIELD_NOT_SUPPORTED_YET refreshDetailsRoutes'],
    ['labels interpretation', (b) => { b.interpretInjectedSolutionsUsingLabels = true; }, 'FIELD_NOT_SUPPORTED_YET interpretInjectedSolutionsUsingLabels'],
    ['walking by name', (b) => { b.model.vehicles[0].travelMode = 'WALKING'; }, 'VALUE_NOT_SUPPORTED_YET model.vehicles[0].travelMode'],
    ['walking by number', (b) => { b.model.vehicles[0].travelMode = 2; }, 'VALUE_NOT_SUPPORTED_YET model.vehicles[0].travelMode'],
    ['detect infeasible', (b) => { b.solvingMode = 'DETECT_SOME_INFEASIBLE_SHIPMENTS'; }, 'VALUE_NOT_SUPPORTED_YET solvingMode'],
    ['distance cost below soft max', (b) => { b.model.vehicles[0].routeDistanceLimit = { maxMeters: 100000, costPerKilometerBelowSoftMax: 0 }; }, 'INVALID_VALUE model.vehicles[0].routeDistanceLimit.costPerKilometerBelowSoftMax'],
    ['place id', (b) => { b.model.shipments[1].deliveries[0] = { arrivalWaypoint: { placeId: 'ChIJ' } }; }, 'FIELD_NOT_SUPPORTED_YET model.shipments[1].deliveries[0].arrivalWaypoint.placeId'],
    ['break frequency', (b) => { b.model.vehicles[0].breakRule = { frequencyConstraints: [{ minBreakDuration: '60s' }] }; }, 'FIELD_NOT_SUPPORTED_YET model.vehicles[0].breakRule.frequencyConstraints'],
    ['costs per vehicle', (b) => { b.model.shipments[0].costsPerVehicle = [1]; }, 'FIELD_NOT_SUPPORTED_YET model.shipments[0].costsPerVehicle'],
    ['used if empty', (b) => { b.model.vehicles[0].usedIfRouteIsEmpty = true; }, 'FIELD_NOT_SUPPORTED_YET model.vehicles[0].usedIfRouteIsEmpty'],
    ['travel duration multiple', (b) => { b.model.vehicles[0].travelDurationMultiple = 1.5; }, 'VALUE_NOT_SUPPORTED_YET model.vehicles[0].travelDurationMultiple'],
    ['truck profile', (b) => { b.model.vehicles[0].svcProfile = 'truck'; }, 'VALUE_NOT_SUPPORTED_YET model.vehicles[0].svcProfile'],
    ['unknown profile', (b) => { b.model.vehicles[0].svcProfile = 'hovercraft'; }, 'INVALID_VALUE model.vehicles[0].svcProfile'],
    ['different departure', (b) => { b.model.shipments[1].deliveries[0].departureLocation = { latitude: 45, longitude: -75 }; }, 'FIELD_NOT_SUPPORTED_YET model.shipments[1].deliveries[0].departureLocation'],
    ['detour limit', (b) => { b.model.shipments[0].pickupToDeliveryAbsoluteDetourLimit = '600s'; }, 'FIELD_NOT_SUPPORTED_YET model.shipments[0].pickupToDeliveryAbsoluteDetourLimit'],
    ['avoid tolls', (b) => { b.model.vehicles[0].routeModifiers = { avoidTolls: true }; }, 'VALUE_NOT_SUPPORTED_YET model.vehicles[0].routeModifiers.avoidTolls'],
  ];
  it.each(cases)('%s', (_, edit, expected) => {
    expect(oneIssue(withBody(edit))).toBe(expected);
  });

  it('accepts the harmless defaults of refused fields', () => {
    valid(withBody((b) => {
      b.model.maxActiveVehicles = 0;
      b.model.precedenceRules = [];
      b.model.vehicles[0].usedIfRouteIsEmpty = false;
      b.model.vehicles[0].travelDurationMultiple = 1;
      b.model.vehicles[0].travelMode = 'DRIVING';
      b.model.vehicles[0].svcProfile = 'auto';
      b.model.vehicles[0].routeModifiers = { avoidTolls: false };
      b.model.shipments[1].deliveries[0].departureLocation = { ...b.model.shipments[1].deliveries[0].arrivalLocation };
      b.interpretInjectedSolutionsUsingLabels = false;
      b.populateTransitionPolylines = false;
    }));
  });

  it('answers issues with the stable code of their name', () => {
    const issue = checkOptimizationRequest(withBody((b) => { b.model.maxActiveVehicles = 2; })).issues[0]!;
    expect(issue).toEqual({
      code: ISSUE_CODES.FIELD_NOT_SUPPORTED_YET,
      displayName: 'FIELD_NOT_SUPPORTED_YET',
      fields: [{ name: 'model.maxActiveVehicles' }],
      errorMessage: expect.stringContaining('maxActiveVehicles'),
    });
    expect(ISSUE_CODES.FIELD_NOT_SUPPORTED_YET).toBe(12);
  });
});

describe('rule 4: at most 16 load types', () => {
  const typed = (count: number, onVehicle = 0) => withBody((b) => {
    b.model.shipments[0].loadDemands = Object.fromEntries(Array.from({ length: count - onVehicle }, (_, i) => [`t${i}`, { amount: 1 }]));
    b.model.vehicles[1].loadLimits = Object.fromEntries(Array.from({ length: onVehicle }, (_, i) => [`v${i}`, { maxLoad: 5 }]));
    b.model.vehicles[0].loadLimits = { t0: { maxLoad: 5 } };
  });
  it('accepts 16 distinct names', () => {
    expect(valid(typed(16, 6)).loadTypes).toHaveLength(16);
  });
  it('refuses the 17th with OUT_OF_RANGE', () => {
    expect(oneIssue(typed(17))).toBe('OUT_OF_RANGE model.shipments[0].loadDemands["t16"]');
    expect(oneIssue(typed(17, 5))).toBe('OUT_OF_RANGE model.vehicles[1].loadLimits["v4"]');
  });
});

describe('field checks', () => {
  const cases: [string, (b: Body) => void, string][] = [
    ['shipment without visits', (b) => { b.model.shipments[1] = { label: 'x' }; }, 'MISSING_REQUIRED_FIELD model.shipments[1]'],
    ['visit without location', (b) => { b.model.shipments[1].deliveries[0] = { duration: '5s' }; }, 'MISSING_REQUIRED_FIELD model.shipments[1].deliveries[0].arrivalLocation'],
    ['location and waypoint', (b) => { b.model.shipments[1].deliveries[0].arrivalWaypoint = { location: { latLng: { latitude: 1, longitude: 1 } } }; }, 'CONFLICTING_FIELDS model.shipments[1].deliveries[0].arrivalWaypoint'],
    ['latitude range', (b) => { b.model.shipments[1].deliveries[0].arrivalLocation.latitude = 91; }, 'OUT_OF_RANGE model.shipments[1].deliveries[0].arrivalLocation.latitude'],
    ['longitude range', (b) => { b.model.vehicles[1].startLocation.longitude = -181; }, 'OUT_OF_RANGE model.vehicles[1].startLocation.longitude'],
    ['bad duration', (b) => { b.model.shipments[0].pickups[0].duration = '60'; }, 'MALFORMED_VALUE model.shipments[0].pickups[0].duration'],
    ['negative duration', (b) => { b.model.shipments[0].pickups[0].duration = '-60s'; }, 'INVALID_VALUE model.shipments[0].pickups[0].duration'],
    ['bad timestamp', (b) => { b.model.shipments[0].deliveries[0].timeWindows[0].endTime = '2024-05-01 17:00'; }, 'MALFORMED_VALUE model.shipments[0].deliveries[0].timeWindows[0].endTime'],
    ['inverted window', (b) => { b.model.shipments[0].deliveries[0].timeWindows[0].endTime = '2024-05-01T08:00:00Z'; }, 'INVALID_VALUE model.shipments[0].deliveries[0].timeWindows[0].endTime'],
    ['window after the horizon', (b) => { b.model.shipments[0].deliveries[0].timeWindows[0].endTime = '2024-05-03T00:00:00Z'; }, 'OUT_OF_RANGE model.shipments[0].deliveries[0].timeWindows[0].endTime'],
    ['soft start outside', (b) => { Object.assign(b.model.shipments[0].deliveries[0].timeWindows[0], { softStartTime: '2024-05-01T08:00:00Z', costPerHourBeforeSoftStartTime: 5 }); }, 'OUT_OF_RANGE model.shipments[0].deliveries[0].timeWindows[0].softStartTime'],
    ['soft end without cost', (b) => { b.model.shipments[0].deliveries[0].timeWindows[0].softEndTime = '2024-05-01T16:00:00Z'; }, 'MISSING_REQUIRED_FIELD model.shipments[0].deliveries[0].timeWindows[0].costPerHourAfterSoftEndTime'],
    ['cost without soft end', (b) => { b.model.shipments[0].deliveries[0].timeWindows[0].costPerHourAfterSoftEndTime = 3; }, 'CONFLICTING_FIELDS model.shipments[0].deliveries[0].timeWindows[0].costPerHourAfterSoftEndTime'],
    ['overlapping windows', (b) => { b.model.shipments[0].deliveries[0].timeWindows.push({ startTime: '2024-05-01T16:00:00Z', endTime: '2024-05-01T18:00:00Z' }); }, 'INVALID_VALUE model.shipments[0].deliveries[0].timeWindows[1].startTime'],
    ['global window inverted', (b) => { b.model.globalEndTime = b.model.globalStartTime; }, 'INVALID_VALUE model.globalEndTime'],
    ['negative cost', (b) => { b.model.vehicles[0].costPerHour = -1; }, 'INVALID_VALUE model.vehicles[0].costPerHour'],
    ['negative penalty', (b) => { b.model.shipments[1].penaltyCost = -5; }, 'INVALID_VALUE model.shipments[1].penaltyCost'],
    ['negative demand', (b) => { b.model.shipments[0].loadDemands.weight.amount = '-1'; }, 'INVALID_VALUE model.shipments[0].loadDemands["weight"].amount'],
    ['fractional demand', (b) => { b.model.shipments[0].loadDemands.weight.amount = 1.5; }, 'MALFORMED_VALUE model.shipments[0].loadDemands["weight"].amount'],
    ['vehicle index out of range', (b) => { b.model.shipments[0].allowedVehicleIndices = [0, 2]; }, 'OUT_OF_RANGE model.shipments[0].allowedVehicleIndices[1]'],
    ['vehicle index twice', (b) => { b.model.shipments[0].allowedVehicleIndices = [1, 1]; }, 'DUPLICATE_VALUE model.shipments[0].allowedVehicleIndices[1]'],
    ['soft load above max', (b) => { b.model.vehicles[0].loadLimits.weight = { maxLoad: 10, softMaxLoad: 20, costPerUnitAboveSoftMax: 1 }; }, 'OUT_OF_RANGE model.vehicles[0].loadLimits["weight"].softMaxLoad'],
    ['soft duration without cost', (b) => { b.model.vehicles[0].travelDurationLimit = { softMaxDuration: '3600s' }; }, 'MISSING_REQUIRED_FIELD model.vehicles[0].travelDurationLimit.costPerHourAfterSoftMax'],
    ['break inverted', (b) => { b.model.vehicles[0].breakRule = { breakRequests: [{ earliestStartTime: '2024-05-01T13:00:00Z', latestStartTime: '2024-05-01T12:00:00Z', minDuration: '600s' }] }; }, 'INVALID_VALUE model.vehicles[0].breakRule.breakRequests[0].latestStartTime'],
    ['break without duration', (b) => { b.model.vehicles[0].breakRule = { breakRequests: [{ earliestStartTime: '2024-05-01T12:00:00Z', latestStartTime: '2024-05-01T13:00:00Z' }] }; }, 'MISSING_REQUIRED_FIELD model.vehicles[0].breakRule.breakRequests[0].minDuration'],
    ['wrong type', (b) => { b.model.shipments = {}; }, 'INVALID_TYPE model.shipments'],
    ['label not a string', (b) => { b.model.vehicles[0].label = 7; }, 'INVALID_TYPE model.vehicles[0].label'],
    ['duplicate tag', (b) => { b.model.shipments[1].deliveries[0].tags = ['x', 'x']; }, 'DUPLICATE_VALUE model.shipments[1].deliveries[0].tags[1]'],
    ['missing model', (b) => { delete b.model; }, 'MISSING_REQUIRED_FIELD model'],
  ];
  it.each(cases)('%s', (_, edit, expected) => {
    expect(oneIssue(withBody(edit))).toBe(expected);
  });

  it('reads limits, breaks, soft windows and allowed vehicles into the model', () => {
    const request = valid(withBody((b) => {
      b.model.shipments[0].allowedVehicleIndices = [1, 0];
      Object.assign(b.model.shipments[0].deliveries[0].timeWindows[0], { softEndTime: '2024-05-01T16:00:00Z', costPerHourAfterSoftEndTime: 3 });
      b.model.vehicles[0].routeDistanceLimit = { maxMeters: '200000', softMaxMeters: 150000, costPerKilometerAboveSoftMax: 2 };
      b.model.vehicles[0].breakRule = { breakRequests: [{ earliestStartTime: '2024-05-01T12:00:00Z', latestStartTime: '2024-05-01T13:00:00Z', minDuration: '1800s' }] };
      b.model.vehicles[1].ignore = true;
      b.model.shipments[1].ignore = true;
    }));
    const day = Date.UTC(2024, 4, 1) / 1000;
    expect(request.shipments[0]!.allowedVehicleIndices).toEqual([1, 0]);
    expect(request.shipments[0]!.delivery!.timeWindows[0]).toEqual({ start: day + 9 * 3600, end: day + 17 * 3600, softEnd: day + 16 * 3600, costPerHourAfterSoftEnd: 3 });
    expect(request.vehicles[0]!.routeDistanceLimit).toEqual({ max: 200000, softMax: 150000, costPerKilometerAboveSoftMax: 2 });
    expect(request.vehicles[0]!.breaks).toEqual([{ earliestStart: day + 12 * 3600, latestStart: day + 13 * 3600, minDuration: 1800 }]);
    expect(request.vehicles[1]!.ignore).toBe(true);
    expect(request.shipments[1]!.ignore).toBe(true);
  });
});

describe('issue lists', () => {
  const manyBad = () => withBody((b) => {
    b.model.shipments = Array.from({ length: 150 }, () => ({ deliveries: [{ duration: 'x' }] }));
  });
  it('caps the list at 100 by default, in document order', () => {
    const result = checkOptimizationRequest(manyBad());
    expect(result.issues).toHaveLength(100);
    expect(result.maxValidationErrors).toBe(100);
    expect(result.issues[0]!.fields[0]!.name).toBe('model.shipments[0].deliveries[0].duration');
    expect(result.issues[1]!.fields[0]!.name).toBe('model.shipments[0].deliveries[0].arrivalLocation');
  });
  it('caps the list at maxValidationErrors', () => {
    const result = checkOptimizationRequest({ ...manyBad(), maxValidationErrors: 3, solvingMode: 'VALIDATE_ONLY' });
    expect(result.issues).toHaveLength(3);
    expect(result.solvingMode).toBe('VALIDATE_ONLY');
    expect(result.request).toBeNull();
  });
  it('keeps the solving mode when the request is invalid', () => {
    expect(checkOptimizationRequest({ solving_mode: 1 }).solvingMode).toBe('VALIDATE_ONLY');
    expect(checkOptimizationRequest({ solvingMode: 'NOPE' }).solvingMode).toBe('DEFAULT_SOLVE');
  });
  it('reports several independent issues', () => {
    expect(issuesOf(withBody((b) => {
      b.model.vehicles[0].costPerHour = -1;
      b.model.shipments[1].penaltyCost = 'lots';
    }))).toEqual(['MALFORMED_VALUE model.shipments[1].penaltyCost', 'INVALID_VALUE model.vehicles[0].costPerHour']);
  });
  it('refuses a body that is not an object', () => {
    expect(oneIssue([])).toBe('INVALID_TYPE request');
  });
});
