/** model.vehicles[] (volume 3 planning rules 2 and 3). */
import type { DistanceLimit, DurationLimit, LoadLimit, TimeWindow } from '../problem.ts';
import type { Place, RequestVehicle } from '../request-model.ts';
import { noteLoadType, type CheckContext } from './context.ts';
import { fieldPath, indexPath, keyPath } from './fields.ts';
import { vehicleEndColumn, vehicleMatrix, vehicleStartRow } from './matrices.ts';
import { readCoordinates } from './places.ts';
import { put } from './normalize.ts';
import { present, type Message } from './reader.ts';
import { readBreakRequests, readTimeWindows } from './time-windows.ts';

const NOT_YET = 'FIELD_NOT_SUPPORTED_YET' as const;
const TRAVEL_MODES = ['TRAVEL_MODE_UNSPECIFIED', 'DRIVING', 'WALKING'] as const;
const UNLOADING_POLICIES = ['UNLOADING_POLICY_UNSPECIFIED', 'LAST_IN_FIRST_OUT', 'FIRST_IN_FIRST_OUT'] as const;
/** Road profiles of /route other than auto: real values, not offered here yet. */
const OTHER_PROFILES = ['car', 'truck', 'bicycle', 'pedestrian', 'transit'];

export function readVehicles(ctx: CheckContext, model: Message, path: string): (RequestVehicle | undefined)[] {
  return ctx.r.messages(model, 'vehicles', path).map(({ item, path: at }) => (ctx.r.issues.full ? undefined : readVehicle(ctx, item, at)));
}

function readVehicle(ctx: CheckContext, v: Message, path: string): RequestVehicle | undefined {
  const { r } = ctx;
  const before = r.issues.count;
  const label = r.string(v, 'label', path);
  r.string(v, 'displayName', path);
  readEnums(ctx, v, path);
  r.refuse(v, 'usedIfRouteIsEmpty', path, NOT_YET, 'usedIfRouteIsEmpty is not supported');
  r.refuse(v, 'extraVisitDurationForVisitType', path, NOT_YET, 'visit types are not supported');
  for (const key of ['capacities', 'startLoadIntervals', 'endLoadIntervals', 'breakRuleIndices']) {
    r.refuse(v, key, path, NOT_YET, 'deprecated and not supported; use loadLimits and breakRule');
  }
  const multiple = r.double(v, 'travelDurationMultiple', path);
  if (multiple !== undefined && multiple <= 0) r.issue('INVALID_VALUE', fieldPath(path, 'travelDurationMultiple'), 'travelDurationMultiple must be positive');
  else if (multiple !== undefined && multiple !== 1) r.issue('VALUE_NOT_SUPPORTED_YET', fieldPath(path, 'travelDurationMultiple'), 'travelDurationMultiple other than 1 is not supported');

  const startTags = r.strings(v, 'startTags', path);
  const endTags = r.strings(v, 'endTags', path);
  const { start, end, matrix } = readEnds(ctx, v, path, startTags, endTags);
  const startTimeWindow = oneWindow(ctx, v, 'startTimeWindows', path);
  const endTimeWindow = oneWindow(ctx, v, 'endTimeWindows', path);
  const cost = (key: string) => r.double(v, key, path, { nonNegative: true }) ?? 0;
  const fixedCost = cost('fixedCost');
  const costPerHour = cost('costPerHour');
  const costPerTraveledHour = cost('costPerTraveledHour');
  const costPerKilometer = cost('costPerKilometer');
  const loadLimits = readLoadLimits(ctx, v, path);
  const routeDurationLimit = readDurationLimit(ctx, v, 'routeDurationLimit', path);
  const travelDurationLimit = readDurationLimit(ctx, v, 'travelDurationLimit', path);
  const routeDistanceLimit = readDistanceLimit(ctx, v, path);
  const rule = r.message(v, 'breakRule', path);
  const breakPath = fieldPath(path, 'breakRule');
  if (rule) r.refuse(rule, 'frequencyConstraints', breakPath, NOT_YET, 'break frequency constraints are not supported');
  const breaks = rule ? readBreakRequests(ctx, rule, breakPath) : [];
  const ignore = r.boolean(v, 'ignore', path) ?? false;
  if (r.issues.count > before || start === undefined || end === undefined || matrix === undefined) return undefined;
  return {
    ...(label !== undefined ? { label } : {}),
    start, end, startTags, endTags, matrix,
    travelMode: 'DRIVING',
    svcProfile: 'auto',
    startTimeWindow: startTimeWindow ?? { start: ctx.globalStart, end: ctx.globalEnd },
    endTimeWindow: endTimeWindow ?? { start: ctx.globalStart, end: ctx.globalEnd },
    fixedCost, costPerHour, costPerTraveledHour, costPerKilometer,
    loadLimits: loadLimits ?? {},
    routeDurationLimit: routeDurationLimit ?? { max: Infinity },
    travelDurationLimit: travelDurationLimit ?? { max: Infinity },
    routeDistanceLimit: routeDistanceLimit ?? { max: Infinity },
    breaks: breaks.filter((b) => b !== undefined),
    ignore,
  };
}

function readEnums(ctx: CheckContext, v: Message, path: string): void {
  const { r } = ctx;
  if (r.enumeration(v, 'travelMode', path, TRAVEL_MODES) === 'WALKING') {
    r.issue('VALUE_NOT_SUPPORTED_YET', fieldPath(path, 'travelMode'), 'travelMode WALKING is not supported; use DRIVING');
  }
  const policy = r.enumeration(v, 'unloadingPolicy', path, UNLOADING_POLICIES);
  if (policy !== undefined && policy !== 'UNLOADING_POLICY_UNSPECIFIED') {
    r.issue('VALUE_NOT_SUPPORTED_YET', fieldPath(path, 'unloadingPolicy'), `unloadingPolicy ${policy} is not supported`);
  }
  const profile = r.string(v, 'svcProfile', path);
  if (profile !== undefined && profile !== 'auto') {
    r.issue(OTHER_PROFILES.includes(profile) ? 'VALUE_NOT_SUPPORTED_YET' : 'INVALID_VALUE', fieldPath(path, 'svcProfile'), `svcProfile "${profile}": auto is the only road profile`);
  }
  const modifiers = r.message(v, 'routeModifiers', path);
  const modifiersPath = fieldPath(path, 'routeModifiers');
  for (const key of ['avoidTolls', 'avoidHighways', 'avoidFerries', 'avoidIndoor']) {
    if (modifiers && r.boolean(modifiers, key, modifiersPath)) r.issue('VALUE_NOT_SUPPORTED_YET', fieldPath(modifiersPath, key), `${key} is not supported`);
  }
}

/** start/end: Place, null (open) or undefined (refused); matrix: index, null (coordinates) or undefined. */
function readEnds(ctx: CheckContext, v: Message, path: string, startTags: string[], endTags: string[]) {
  const { r } = ctx;
  const startAt = readCoordinates(r, v, 'startLocation', 'startWaypoint', path);
  const endAt = readCoordinates(r, v, 'endLocation', 'endWaypoint', path);
  const m = ctx.matrices;
  if (!m) {
    const place = (c: typeof startAt): Place | null | undefined => (!c.given ? null : c.latLng && { kind: 'coordinates', latLng: c.latLng });
    return { start: place(startAt), end: place(endAt), matrix: null };
  }
  let refused = false;
  for (const c of [startAt, endAt]) {
    if (c.given) {
      r.issue('CONFLICTING_FIELDS', c.field, 'with own matrices, place vehicles by startTags and endTags, not coordinates');
      refused = true;
    }
  }
  const row = vehicleStartRow(r, m, startTags, fieldPath(path, 'startTags'));
  const column = vehicleEndColumn(r, m, endTags, fieldPath(path, 'endTags'));
  const matrix = vehicleMatrix(r, m, startTags, fieldPath(path, 'startTags'));
  const start: Place | null | undefined = refused || row === undefined ? undefined : row === null ? null : { kind: 'tags', src: row, dst: null };
  const end: Place | null | undefined = refused || column === undefined ? undefined : column === null ? null : { kind: 'tags', src: null, dst: column };
  return { start, end, matrix };
}

function oneWindow(ctx: CheckContext, v: Message, key: string, path: string): TimeWindow | undefined {
  const count = ctx.r.list(v, key, path).length;
  if (count > 1) {
    ctx.r.issue(NOT_YET, indexPath(fieldPath(path, key), 1), `${key}: more than one start or end window per vehicle is not supported`);
    return undefined;
  }
  return readTimeWindows(ctx, v, key, path)[0];
}

/** A soft bound with its cost: both or neither, soft within the hard maximum. */
function softPair(ctx: CheckContext, msg: Message, path: string, softKey: string, costKey: string, soft: number | undefined, max: number): void {
  const { r } = ctx;
  if (soft !== undefined && !present(msg, costKey)) r.issue('MISSING_REQUIRED_FIELD', fieldPath(path, costKey), `${costKey} is required with ${softKey}`);
  if (!present(msg, softKey) && present(msg, costKey)) r.issue('CONFLICTING_FIELDS', fieldPath(path, costKey), `${costKey} needs ${softKey}`);
  if (soft !== undefined && soft > max) r.issue('OUT_OF_RANGE', fieldPath(path, softKey), `${softKey} must not exceed the hard maximum`);
}

function readLoadLimits(ctx: CheckContext, v: Message, path: string): Record<string, LoadLimit> | undefined {
  const { r } = ctx;
  const out: Record<string, LoadLimit> = {};
  const limitsPath = fieldPath(path, 'loadLimits');
  for (const [type, value] of Object.entries(r.map(v, 'loadLimits', path))) {
    const at = keyPath(limitsPath, type);
    if (!noteLoadType(ctx, type, at)) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      r.issue('INVALID_TYPE', at, 'a load limit must be an object {maxLoad, softMaxLoad, costPerUnitAboveSoftMax}');
      continue;
    }
    const l = value as Message;
    r.refuse(l, 'startLoadInterval', at, NOT_YET, 'load intervals are not supported');
    r.refuse(l, 'endLoadInterval', at, NOT_YET, 'load intervals are not supported');
    const max = r.int64(l, 'maxLoad', at, { nonNegative: true }) ?? Infinity;
    const softMax = r.int64(l, 'softMaxLoad', at, { nonNegative: true });
    const cost = r.double(l, 'costPerUnitAboveSoftMax', at, { nonNegative: true });
    softPair(ctx, l, at, 'softMaxLoad', 'costPerUnitAboveSoftMax', softMax, max);
    put(out, type, { max, ...(softMax !== undefined ? { softMax, costPerUnitAboveSoftMax: cost ?? 0 } : {}) });
  }
  return out;
}

function readDurationLimit(ctx: CheckContext, v: Message, key: string, path: string): DurationLimit | undefined {
  const { r } = ctx;
  const l = r.message(v, key, path);
  if (!l) return undefined;
  const at = fieldPath(path, key);
  if (!r.refuse(l, 'quadraticSoftMaxDuration', at, NOT_YET, 'quadratic soft duration limits are not supported')) {
    r.refuse(l, 'costPerSquareHourAfterQuadraticSoftMax', at, NOT_YET, 'quadratic soft duration limits are not supported');
  }
  const max = r.duration(l, 'maxDuration', at) ?? Infinity;
  const softMax = r.duration(l, 'softMaxDuration', at);
  const cost = r.double(l, 'costPerHourAfterSoftMax', at, { nonNegative: true });
  softPair(ctx, l, at, 'softMaxDuration', 'costPerHourAfterSoftMax', softMax, max);
  return { max, ...(softMax !== undefined ? { softMax, costPerHourAfterSoftMax: cost ?? 0 } : {}) };
}

function readDistanceLimit(ctx: CheckContext, v: Message, path: string): DistanceLimit | undefined {
  const { r } = ctx;
  const l = r.message(v, 'routeDistanceLimit', path);
  if (!l) return undefined;
  const at = fieldPath(path, 'routeDistanceLimit');
  if (present(l, 'costPerKilometerBelowSoftMax')) {
    r.issue('INVALID_VALUE', fieldPath(at, 'costPerKilometerBelowSoftMax'), 'costPerKilometerBelowSoftMax is not accepted');
  }
  const max = r.int64(l, 'maxMeters', at, { nonNegative: true }) ?? Infinity;
  const softMax = r.int64(l, 'softMaxMeters', at, { nonNegative: true });
  const cost = r.double(l, 'costPerKilometerAboveSoftMax', at, { nonNegative: true });
  softPair(ctx, l, at, 'softMaxMeters', 'costPerKilometerAboveSoftMax', softMax, max);
  return { max, ...(softMax !== undefined ? { softMax, costPerKilometerAboveSoftMax: cost ?? 0 } : {}) };
}
