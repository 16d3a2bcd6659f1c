/**
 * Time windows (visits, vehicle start and end) and break requests. A window lies within the
 * global window, start ≤ end, soft bounds within the hard ones, each soft bound with its hourly
 * cost and no cost without its bound; several windows must be sorted, disjoint and hard only.
 */
import type { BreakRequest, TimeWindow } from '../problem.ts';
import type { CheckContext } from './context.ts';
import { fieldPath } from './fields.ts';
import { present, type Message } from './reader.ts';

/** Each window of `msg[key]`; undefined entries were refused (issues recorded). */
export function readTimeWindows(ctx: CheckContext, msg: Message, key: string, path: string): (TimeWindow | undefined)[] {
  const items = ctx.r.messages(msg, key, path);
  const windows = items.map(({ item, path: at }) => readTimeWindow(ctx, item, at));
  if (items.length > 1) {
    items.forEach(({ item, path: at }) => {
      for (const soft of ['softStartTime', 'softEndTime']) {
        if (present(item, soft)) ctx.r.issue('INVALID_VALUE', fieldPath(at, soft), `${soft} is only allowed when there is a single time window`);
      }
    });
    for (let i = 1; i < windows.length; i++) {
      const prev = windows[i - 1];
      const cur = windows[i];
      if (prev && cur && !(prev.end < cur.start)) {
        ctx.r.issue('INVALID_VALUE', fieldPath(items[i]!.path, 'startTime'), 'time windows must be in increasing order and must not overlap or touch');
      }
    }
  }
  return windows;
}

function readTimeWindow(ctx: CheckContext, w: Message, path: string): TimeWindow | undefined {
  const { r } = ctx;
  const before = r.issues.count;
  const start = r.timestamp(w, 'startTime', path) ?? ctx.globalStart;
  const end = r.timestamp(w, 'endTime', path) ?? ctx.globalEnd;
  const softStart = r.timestamp(w, 'softStartTime', path);
  const softEnd = r.timestamp(w, 'softEndTime', path);
  const costBefore = r.double(w, 'costPerHourBeforeSoftStartTime', path, { nonNegative: true });
  const costAfter = r.double(w, 'costPerHourAfterSoftEndTime', path, { nonNegative: true });
  if (r.issues.count > before) return undefined;
  const inGlobal = (t: number) => t >= ctx.globalStart && t <= ctx.globalEnd;
  if (!inGlobal(start)) r.issue('OUT_OF_RANGE', fieldPath(path, 'startTime'), 'startTime must lie within model.globalStartTime and globalEndTime');
  if (!inGlobal(end)) r.issue('OUT_OF_RANGE', fieldPath(path, 'endTime'), 'endTime must lie within model.globalStartTime and globalEndTime');
  if (start > end) r.issue('INVALID_VALUE', fieldPath(path, 'endTime'), 'endTime must not be before startTime');
  const soft = (value: number | undefined, key: string, cost: number | undefined, costKey: string) => {
    if (value !== undefined && (value < start || value > end)) r.issue('OUT_OF_RANGE', fieldPath(path, key), `${key} must lie within startTime and endTime`);
    if (value !== undefined && !present(w, costKey)) r.issue('MISSING_REQUIRED_FIELD', fieldPath(path, costKey), `${costKey} is required with ${key}`);
    if (value === undefined && cost !== undefined) r.issue('CONFLICTING_FIELDS', fieldPath(path, costKey), `${costKey} needs ${key}`);
  };
  soft(softStart, 'softStartTime', costBefore, 'costPerHourBeforeSoftStartTime');
  soft(softEnd, 'softEndTime', costAfter, 'costPerHourAfterSoftEndTime');
  if (r.issues.count > before) return undefined;
  return {
    start,
    end,
    ...(softStart !== undefined ? { softStart, costPerHourBeforeSoftStart: costBefore ?? 0 } : {}),
    ...(softEnd !== undefined ? { softEnd, costPerHourAfterSoftEnd: costAfter ?? 0 } : {}),
  };
}

/** vehicle.breakRule.breakRequests. */
export function readBreakRequests(ctx: CheckContext, rule: Message, path: string): (BreakRequest | undefined)[] {
  const { r } = ctx;
  return r.messages(rule, 'breakRequests', path).map(({ item, path: at }) => {
    const before = r.issues.count;
    for (const key of ['earliestStartTime', 'latestStartTime', 'minDuration']) {
      if (!present(item, key)) r.issue('MISSING_REQUIRED_FIELD', fieldPath(at, key), `${key} is required`);
    }
    const earliestStart = r.timestamp(item, 'earliestStartTime', at);
    const latestStart = r.timestamp(item, 'latestStartTime', at);
    const minDuration = r.duration(item, 'minDuration', at);
    if (earliestStart === undefined || latestStart === undefined || minDuration === undefined) return undefined;
    for (const [key, t] of [['earliestStartTime', earliestStart], ['latestStartTime', latestStart]] as const) {
      if (t < ctx.globalStart || t > ctx.globalEnd) r.issue('OUT_OF_RANGE', fieldPath(at, key), `${key} must lie within model.globalStartTime and globalEndTime`);
    }
    if (earliestStart > latestStart) r.issue('INVALID_VALUE', fieldPath(at, 'latestStartTime'), 'latestStartTime must not be before earliestStartTime');
    if (minDuration <= 0) r.issue('INVALID_VALUE', fieldPath(at, 'minDuration'), 'minDuration must be positive');
    return r.issues.count > before ? undefined : { earliestStart, latestStart, minDuration };
  });
}
