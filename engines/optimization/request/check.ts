/**
 * The checker of an Optimization request body (volume 3 "Optimization request" and planning
 * rules): snake_case or camelCase JSON in, the typed request or every issue (up to
 * maxValidationErrors) out. Count limits (rule 8) are limits.ts, run before this.
 */
import { accept, reject, type Checked } from '../../../lib/checked.ts';
import type { SearchMode } from '../problem.ts';
import type { OptimizationRequest, RequestShipment, RequestVehicle, SolvingMode } from '../request-model.ts';
import type { CheckContext } from './context.ts';
import type { OptimizationWarning } from '../response-json.ts';
import { DEFAULT_MAX_VALIDATION_ERRORS, Issues, type ValidationIssue } from './issues.ts';
import { readMatrices, type ReadMatrices } from './matrices.ts';
import { isRecord, normalizeRequest } from './normalize.ts';
import { Reader, present, type Message } from './reader.ts';
import { readShipments } from './shipments.ts';
import { parseEnum, parseInt32 } from './values.ts';
import { readVehicles } from './vehicles.ts';

/** What the checker reports besides the Checked<T> verdict, whatever the verdict. */
export interface CheckDetails {
  /** Null when there is any issue (the verdict's value otherwise). */
  request: OptimizationRequest | null;
  /** In document order, at most maxValidationErrors. */
  issues: ValidationIssue[];
  warnings: OptimizationWarning[];
  /** Read even when other fields fail, so the route knows how to answer (DEFAULT_SOLVE when unreadable). */
  solvingMode: SolvingMode;
  /** The cap applied to issues (100 when absent, 0 or unreadable). */
  maxValidationErrors: number;
}

/**
 * The shared Checked<T> shape (lib/checked.ts): the request, or the first issue's message with
 * code INVALID_ARGUMENT and every issue in `issues` (the format's validationErrors).
 */
export type CheckResult = Checked<OptimizationRequest> & CheckDetails;

export interface CheckOptions {
  /** The plan's location limit: own matrices may hold at most its square of cells each. */
  maxLocations?: number;
}

const SOLVING_MODES = ['DEFAULT_SOLVE', 'VALIDATE_ONLY', 'DETECT_SOME_INFEASIBLE_SHIPMENTS'] as const;
const SEARCH_MODES = ['SEARCH_MODE_UNSPECIFIED', 'RETURN_FAST', 'CONSUME_ALL_AVAILABLE_TIME'] as const;
/** Proto3 defaults of ShipmentModel.global_start_time / global_end_time. */
const DEFAULT_GLOBAL_START = 0;
const DEFAULT_GLOBAL_END = 365 * 86400;
const NOT_YET = 'FIELD_NOT_SUPPORTED_YET' as const;

export function checkOptimizationRequest(raw: unknown, options: CheckOptions = {}): CheckResult {
  const { body, unknownFields, duplicateFields } = normalizeRequest(raw);
  const req: Message = isRecord(body) ? body : {};
  const maxValidationErrors = readCap(req);
  const mode = parseEnum(req.solvingMode, SOLVING_MODES);
  const solvingMode: SolvingMode = mode.ok && mode.value === 'VALIDATE_ONLY' ? 'VALIDATE_ONLY' : 'DEFAULT_SOLVE';
  const r = new Reader(new Issues(maxValidationErrors));
  const warnings: OptimizationWarning[] = [];
  const result = (request: OptimizationRequest | null): CheckResult => verdict(r.issues.count > 0 ? null : request, {
    issues: r.issues.list, warnings, solvingMode, maxValidationErrors,
  });

  if (!isRecord(body)) {
    r.issue('INVALID_TYPE', 'request', 'the body must be a JSON object (an OptimizeToursRequest)');
    return result(null);
  }
  for (const path of duplicateFields) r.issue('INVALID_ARGUMENT', path, `${path} is given twice (in snake_case and camelCase)`);
  for (const path of unknownFields) r.issue('UNKNOWN_FIELD', path, `${path} is not a field of the request format`);

  const top = readTop(r, req, warnings);
  const model = r.message(req, 'model', '');
  if (!model) {
    if (!present(req, 'model')) r.issue('MISSING_REQUIRED_FIELD', 'model', 'model is required');
    return result(null);
  }
  refuseModelFields(r, model);
  const globalStart = r.timestamp(model, 'globalStartTime', 'model') ?? DEFAULT_GLOBAL_START;
  const globalEnd = r.timestamp(model, 'globalEndTime', 'model') ?? DEFAULT_GLOBAL_END;
  if (globalStart >= globalEnd) {
    r.issue('INVALID_VALUE', 'model.globalEndTime', 'model.globalEndTime must be after globalStartTime');
    return result(null);
  }
  const maxCells = (options.maxLocations ?? Infinity) ** 2;
  const own = readMatrices(r, model, 'model', maxCells);
  if (own && top.useGeodesicDistances) {
    r.issue('CONFLICTING_FIELDS', 'useGeodesicDistances', 'useGeodesicDistances cannot be true with model.durationDistanceMatrices');
  }
  const ctx: CheckContext = {
    r, warnings, globalStart, globalEnd,
    vehicleCount: r.list(model, 'vehicles', 'model').length,
    matrices: own?.tags ?? null,
    loadTypes: [],
  };
  const shipments = readShipments(ctx, model, 'model');
  const vehicles = readVehicles(ctx, model, 'model');
  if (own) checkMetersNeeded(r, own, vehicles);
  if (r.issues.count > 0) return result(null);

  return result({
    ...(top.label !== undefined ? { label: top.label } : {}),
    solvingMode,
    searchMode: top.searchMode,
    timeout: top.timeout,
    maxValidationErrors,
    populatePolylines: top.populatePolylines,
    considerRoadTraffic: top.considerRoadTraffic,
    travel: own
      ? { kind: 'matrices', srcTags: own.tags.srcTags, dstTags: own.tags.dstTags, matrices: own.matrices }
      : top.useGeodesicDistances ? { kind: 'geodesic', metersPerSecond: top.geodesicMetersPerSecond ?? 1 } : { kind: 'road' },
    globalStart,
    globalEnd,
    shipments: shipments as RequestShipment[],
    vehicles: vehicles as RequestVehicle[],
    loadTypes: ctx.loadTypes,
  });
}

function verdict(request: OptimizationRequest | null, details: Omit<CheckDetails, 'request'>): CheckResult {
  if (request) return { ...accept(request), request, ...details };
  const message = details.issues[0]?.errorMessage ?? 'the request is invalid';
  return { ...reject<OptimizationRequest>(message, 'INVALID_ARGUMENT'), request, ...details };
}

function readCap(req: Message): number {
  const parsed = parseInt32(req.maxValidationErrors);
  return parsed.ok && parsed.value > 0 ? parsed.value : DEFAULT_MAX_VALIDATION_ERRORS;
}

function readTop(r: Reader, req: Message, warnings: OptimizationWarning[]) {
  r.int32(req, 'maxValidationErrors', '', { nonNegative: true });
  if (r.enumeration(req, 'solvingMode', '', SOLVING_MODES) === 'DETECT_SOME_INFEASIBLE_SHIPMENTS') {
    r.issue('VALUE_NOT_SUPPORTED_YET', 'solvingMode', 'solvingMode DETECT_SOME_INFEASIBLE_SHIPMENTS is not supported; use DEFAULT_SOLVE or VALIDATE_ONLY');
  }
  const search = r.enumeration(req, 'searchMode', '', SEARCH_MODES);
  const searchMode: SearchMode = search === 'CONSUME_ALL_AVAILABLE_TIME' ? search : 'RETURN_FAST';
  const timeout = r.duration(req, 'timeout', '') ?? null;
  if (timeout === 0) r.issue('INVALID_VALUE', 'timeout', 'timeout must be positive');
  const label = r.string(req, 'label', '');
  if (r.string(req, 'parent', '') !== undefined) warnings.push({ code: 'PARENT_IGNORED', message: 'parent is ignored: the API key identifies the account' });
  for (const key of ['injectedFirstSolutionRoutes', 'injectedSolutionConstraint', 'refreshDetailsRoutes', 'interpretInjectedSolutionsUsingLabels']) {
    r.refuse(req, key, '', NOT_YET, 'injected solutions are not supported');
  }
  const considerRoadTraffic = r.boolean(req, 'considerRoadTraffic', '') ?? false;
  if (considerRoadTraffic) warnings.push({ code: 'ROAD_TRAFFIC_IGNORED', message: 'considerRoadTraffic is ignored: travel times are free-flow' });
  const populatePolylines = r.boolean(req, 'populatePolylines', '') ?? false;
  if (r.boolean(req, 'populateTransitionPolylines', '')) warnings.push({ code: 'TRANSITION_POLYLINES_IGNORED', message: 'populateTransitionPolylines is ignored: only routePolyline is drawn' });
  r.boolean(req, 'populateTravelStepPolylines', '');
  r.boolean(req, 'allowLargeDeadlineDespiteInterruptionRisk', '');
  const useGeodesicDistances = r.boolean(req, 'useGeodesicDistances', '') ?? false;
  const geodesicMetersPerSecond = r.double(req, 'geodesicMetersPerSecond', '');
  if (geodesicMetersPerSecond !== undefined && geodesicMetersPerSecond < 1) {
    r.issue('OUT_OF_RANGE', 'geodesicMetersPerSecond', 'geodesicMetersPerSecond must be at least 1');
  }
  if (useGeodesicDistances && !present(req, 'geodesicMetersPerSecond')) {
    r.issue('MISSING_REQUIRED_FIELD', 'geodesicMetersPerSecond', 'geodesicMetersPerSecond is required when useGeodesicDistances is true');
  }
  return { searchMode, timeout, label, considerRoadTraffic, populatePolylines, useGeodesicDistances, geodesicMetersPerSecond };
}

function refuseModelFields(r: Reader, model: Message): void {
  r.refuse(model, 'maxActiveVehicles', 'model', NOT_YET, 'maxActiveVehicles is not supported');
  r.refuse(model, 'globalDurationCostPerHour', 'model', NOT_YET, 'globalDurationCostPerHour is not supported');
  r.refuse(model, 'shipmentTypeIncompatibilities', 'model', NOT_YET, 'shipment types are not supported');
  r.refuse(model, 'shipmentTypeRequirements', 'model', NOT_YET, 'shipment types are not supported');
  r.refuse(model, 'precedenceRules', 'model', NOT_YET, 'precedence rules are not supported');
  r.refuse(model, 'transitionAttributes', 'model', NOT_YET, 'transition attributes are not supported');
  r.refuse(model, 'breakRules', 'model', NOT_YET, 'deprecated; use vehicles[].breakRule');
}

/** Rows may leave meters out only when no vehicle using the matrix has a distance cost or limit. */
function checkMetersNeeded(r: Reader, own: ReadMatrices, vehicles: (RequestVehicle | undefined)[]): void {
  const reported = new Set<number>();
  for (const v of vehicles) {
    if (!v || v.matrix === null || reported.has(v.matrix)) continue;
    const missing = own.tags.metersMissing[v.matrix];
    const usesDistance = v.costPerKilometer > 0 || v.routeDistanceLimit.max !== Infinity || v.routeDistanceLimit.softMax !== undefined;
    if (missing && usesDistance) {
      reported.add(v.matrix);
      r.issue('MISSING_REQUIRED_FIELD', missing, 'meters is required: a vehicle using this matrix has costPerKilometer or routeDistanceLimit');
    }
  }
}

export { countLimitViolation, countPlanItems, type ExceededLimit, type PlanCountLimits } from './limits.ts';
