import { addDays, isoWeekday, localDateTimeMs, localDay, parsePublisherTime } from './publisher-time.ts';

/** [start, end) in epoch ms; null = open on that side. */
export type Window = [number | null, number | null];

interface Recurring {
  startDate: string;
  endDate: string | null;
  days: Set<number> | null;
  dailyStart: string | null;
  dailyEnd: string | null;
}

/**
 * An Open511 schedule read into instants of the publisher's zone. With recurring schedules, the
 * intervals only bound them (DriveBC sends an open interval beside a daily one): the event is in
 * force in the recurring windows, clipped to the intervals' overall span.
 */
export interface Schedule {
  zone: string;
  intervals: Window[];
  recurring: Recurring[];
  /** Exception dates of recurring schedules: no event that day (null) or these HH:mm ranges instead. */
  exceptions: Map<string, [string, string][] | null>;
}

/** A schedule as stored in Postgres (JSON: sets and maps as arrays). */
export interface ScheduleJson {
  zone: string;
  intervals: Window[];
  recurring: { startDate: string; endDate: string | null; days: number[] | null; dailyStart: string | null; dailyEnd: string | null }[];
  exceptions: [string, [string, string][] | null][];
}

export function scheduleToJson(s: Schedule): ScheduleJson {
  return {
    zone: s.zone,
    intervals: s.intervals,
    recurring: s.recurring.map((r) => ({ ...r, days: r.days ? [...r.days].sort((a, b) => a - b) : null })),
    exceptions: [...s.exceptions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  };
}

export function scheduleFromJson(j: ScheduleJson): Schedule {
  return {
    zone: j.zone,
    intervals: j.intervals,
    recurring: j.recurring.map((r) => ({ ...r, days: r.days ? new Set(r.days) : null })),
    exceptions: new Map(j.exceptions),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
const EXCEPTION = /^(\d{4}-\d{2}-\d{2})((?: (?:[01]\d|2[0-3]):[0-5]\d-(?:[01]\d|2[0-3]):[0-5]\d)*)$/;
const MAX_WINDOWS = 500;

const isDate = (v: unknown, zone: string): v is string => typeof v === 'string' && DATE.test(v) && localDateTimeMs(v, '00:00', zone) !== null;
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/**
 * Reads `schedule` (intervals and/or recurring_schedules with exceptions; DriveBC sends both at
 * once). Times without an offset are local to `zone`. An absent schedule is open on both sides;
 * one that is present but has no readable entry is refused with the reason.
 */
export function readSchedule(raw: unknown, zone: string): { ok: true; schedule: Schedule } | { ok: false; reason: string } {
  const schedule: Schedule = { zone, intervals: [], recurring: [], exceptions: new Map() };
  if (raw === undefined || raw === null) {
    schedule.intervals.push([null, null]);
    return { ok: true, schedule };
  }
  if (typeof raw !== 'object' || Array.isArray(raw)) return { ok: false, reason: 'schedule is not an object' };
  const s = raw as Record<string, unknown>;
  for (const interval of asArray(s.intervals)) {
    if (typeof interval !== 'string' || !interval.includes('/')) continue;
    const [startText = '', endText = ''] = interval.split('/');
    const start = parsePublisherTime(startText, zone);
    const end = endText.trim() === '' ? null : parsePublisherTime(endText, zone);
    if (!start || (endText.trim() !== '' && !end)) continue;
    schedule.intervals.push([start.ms, end ? end.ms : null]);
  }
  for (const entry of asArray(s.recurring_schedules)) {
    if (!entry || typeof entry !== 'object') continue;
    const r = entry as Record<string, unknown>;
    if (!isDate(r.start_date, zone)) continue;
    const endDate = isDate(r.end_date, zone) ? r.end_date : null;
    const days = Array.isArray(r.days) ? new Set(r.days.map(Number).filter((d) => Number.isInteger(d) && d >= 1 && d <= 7)) : null;
    const dailyStart = typeof r.daily_start_time === 'string' && TIME.test(r.daily_start_time) ? r.daily_start_time : null;
    const dailyEnd = typeof r.daily_end_time === 'string' && TIME.test(r.daily_end_time) ? r.daily_end_time : null;
    schedule.recurring.push({ startDate: r.start_date, endDate, days: days && days.size ? days : null, dailyStart: dailyStart && dailyEnd ? dailyStart : null, dailyEnd: dailyStart && dailyEnd ? dailyEnd : null });
  }
  for (const exception of asArray(s.exceptions)) {
    const m = typeof exception === 'string' ? EXCEPTION.exec(exception.trim()) : null;
    if (!m || !isDate(m[1], zone)) continue;
    const ranges = m[2]!.trim() ? m[2]!.trim().split(' ').map((r) => r.split('-') as [string, string]) : null;
    schedule.exceptions.set(m[1]!, ranges);
  }
  if (!schedule.intervals.length && !schedule.recurring.length) return { ok: false, reason: 'schedule has no readable interval or recurring schedule' };
  return { ok: true, schedule };
}

/** The day's window of a recurring schedule: daily times, or the whole local day. */
function dayWindows(date: string, ranges: [string, string][] | null, zone: string): Window[] {
  if (!ranges) return [[localDateTimeMs(date, '00:00', zone), localDateTimeMs(addDays(date, 1), '00:00', zone)]];
  return ranges.map(([from, to]) => {
    const start = localDateTimeMs(date, from, zone);
    // An end at or before the start runs past midnight.
    const end = localDateTimeMs(to > from ? date : addDays(date, 1), to, zone);
    return [start, end];
  });
}

function occursOn(r: Recurring, date: string): boolean {
  return date >= r.startDate && (r.endDate === null || date <= r.endDate) && (r.days === null || r.days.has(isoWeekday(date)));
}

function windowsOfDay(s: Schedule, r: Recurring, date: string): Window[] {
  if (!occursOn(r, date)) return [];
  if (s.exceptions.has(date)) {
    const ranges = s.exceptions.get(date)!;
    return ranges ? dayWindows(date, ranges, s.zone) : [];
  }
  return dayWindows(date, r.dailyStart ? [[r.dailyStart, r.dailyEnd!]] : null, s.zone);
}

/** The intervals' overall span (null = open on that side); open both ways without intervals. */
function intervalSpan(s: Schedule): Window {
  if (!s.intervals.length) return [null, null];
  let start: number | null = Infinity, end: number | null = -Infinity;
  for (const [a, b] of s.intervals) {
    start = start === null || a === null ? null : Math.min(start, a);
    end = end === null || b === null ? null : Math.max(end, b);
  }
  return [start, end];
}

/** The part of `w` inside `span`, or null when nothing is. */
function clip(w: Window, span: Window): Window | null {
  const start = span[0] === null ? w[0] : w[0] === null ? span[0] : Math.max(w[0], span[0]);
  const end = span[1] === null ? w[1] : w[1] === null ? span[1] : Math.min(w[1], span[1]);
  return start !== null && end !== null && end <= start ? null : [start, end];
}

const later = (a: string, b: string) => (a > b ? a : b);
const earlier = (a: string, b: string) => (a < b ? a : b);

/** The windows of recurring schedule `r` on local `date`, clipped to the intervals' span. */
function recurringWindows(s: Schedule, r: Recurring, date: string, span: Window): Window[] {
  return windowsOfDay(s, r, date).map((w) => clip(w, span)).filter((w): w is Window => w !== null);
}

/** Where the whole schedule begins and ends (null end = open-ended; null start = unknown). */
export function scheduleBounds(s: Schedule): { startMs: number | null; endMs: number | null } {
  if (!s.recurring.length) {
    const [startMs, endMs] = intervalSpan(s);
    return { startMs, endMs };
  }
  const span = intervalSpan(s);
  const spanFirstDay = span[0] === null ? null : addDays(localDay(span[0], s.zone).date, -1);
  const spanLastDay = span[1] === null ? null : localDay(span[1], s.zone).date;
  const starts: number[] = [];
  const ends: (number | null)[] = [];
  for (const r of s.recurring) {
    // The first and last windows actually in force (looked for within a week of the bounds).
    const firstDay = spanFirstDay ? later(r.startDate, spanFirstDay) : r.startDate;
    let first: Window | undefined;
    for (let i = 0; i < 8 && !first; i++) first = recurringWindows(s, r, addDays(firstDay, i), span)[0];
    starts.push(first?.[0] ?? Math.max(localDateTimeMs(firstDay, '00:00', s.zone)!, span[0] ?? -Infinity));
    const lastDay = r.endDate === null ? spanLastDay : spanLastDay ? earlier(r.endDate, spanLastDay) : r.endDate;
    if (lastDay === null) {
      ends.push(null);
      continue;
    }
    let last: Window | undefined;
    for (let i = 0; i < 8 && !last; i++) last = recurringWindows(s, r, addDays(lastDay, -i), span).at(-1);
    ends.push(last ? last[1] : Math.min(localDateTimeMs(addDays(lastDay, 1), '00:00', s.zone)!, span[1] ?? Infinity));
  }
  return { startMs: Math.min(...starts), endMs: ends.includes(null) ? null : Math.max(...(ends as number[])) };
}

/**
 * The windows in which the schedule is in force and that overlap [fromMs, untilMs), in start
 * order: the intervals as published or, when there are recurring schedules, their windows day by
 * day (exceptions applied) clipped to the intervals' span. At most 500.
 */
export function scheduleWindows(s: Schedule, fromMs: number, untilMs: number): Window[] {
  const overlaps = ([start, end]: Window) => (start === null || start < untilMs) && (end === null || end > fromMs);
  const byStart = (a: Window, b: Window) => (a[0] ?? -Infinity) - (b[0] ?? -Infinity);
  if (!s.recurring.length) return s.intervals.filter(overlaps).sort(byStart);
  const span = intervalSpan(s);
  const windows: Window[] = [];
  const firstDay = addDays(localDay(Math.max(fromMs, span[0] ?? -Infinity), s.zone).date, -1); // yesterday's overnight window may still run
  const lastDay = localDay(Math.min(untilMs, span[1] ?? Infinity), s.zone).date;
  for (const r of s.recurring) {
    const until = r.endDate === null ? lastDay : earlier(lastDay, r.endDate);
    for (let date = later(firstDay, r.startDate); date <= until && windows.length < MAX_WINDOWS; date = addDays(date, 1)) {
      for (const w of recurringWindows(s, r, date, span)) if (overlaps(w)) windows.push(w);
    }
  }
  return windows.slice(0, MAX_WINDOWS).sort(byStart);
}

/** How far around now recurring windows are expanded to find the current or next one. */
const LOOK_MS = 8 * 86_400_000;

export interface ScheduleState {
  /** in_force: inside a window; upcoming: a window starts later; ended: none will. */
  state: 'in_force' | 'upcoming' | 'ended';
  /** The state holds from fromMs until untilMs (exclusive); past them, ask again. */
  fromMs: number;
  untilMs: number;
}

/** Whether the schedule is in force at `nowMs`, and for how long that answer holds. */
export function scheduleStateAt(s: Schedule, nowMs: number): ScheduleState {
  const recurring = s.recurring.length > 0;
  const lo = recurring ? nowMs - LOOK_MS : -Infinity;
  const hi = recurring ? nowMs + LOOK_MS : Infinity;
  const windows = (recurring ? scheduleWindows(s, lo, hi) : s.intervals)
    .map(([a, b]) => [a ?? -Infinity, b ?? Infinity] as [number, number])
    .sort((a, b) => a[0] - b[0]);
  let prevEnd = lo, nextStart = Infinity;
  // Overlapping or touching windows merge: the state does not change where one ends as the next starts.
  for (let i = 0; i < windows.length; i++) {
    let [start, end] = windows[i]!;
    while (i + 1 < windows.length && windows[i + 1]![0] <= end) end = Math.max(end, windows[++i]![1]);
    if (start <= nowMs && nowMs < end) return { state: 'in_force', fromMs: Math.max(start, lo), untilMs: Math.min(end, hi) };
    if (end <= nowMs) prevEnd = Math.max(prevEnd, end);
    else nextStart = Math.min(nextStart, start);
  }
  if (nextStart < Infinity) return { state: 'upcoming', fromMs: prevEnd, untilMs: nextStart };
  if (recurring) {
    // Nothing within the look-ahead; a recurring schedule may still have windows after it.
    const { endMs } = scheduleBounds(s);
    if (endMs === null || endMs > nowMs) return { state: 'upcoming', fromMs: prevEnd, untilMs: hi };
  }
  return { state: 'ended', fromMs: prevEnd, untilMs: Infinity };
}
