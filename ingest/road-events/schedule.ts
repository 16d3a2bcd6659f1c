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

/** An Open511 schedule read into instants of the publisher's zone. */
export interface Schedule {
  zone: string;
  intervals: Window[];
  recurring: Recurring[];
  /** Exception dates of recurring schedules: no event that day (null) or these HH:mm ranges instead. */
  exceptions: Map<string, [string, string][] | null>;
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

/** Where the whole schedule begins and ends (null end = open-ended; null start = unknown). */
export function scheduleBounds(s: Schedule): { startMs: number | null; endMs: number | null } {
  const starts: (number | null)[] = [];
  const ends: (number | null)[] = [];
  for (const [start, end] of s.intervals) {
    starts.push(start);
    ends.push(end);
  }
  for (const r of s.recurring) {
    // The first and last dates the schedule actually occurs on (within a week of its bounds).
    let first: Window | undefined;
    for (let i = 0; i < 7 && !first; i++) first = windowsOfDay(s, r, addDays(r.startDate, i))[0];
    starts.push(first ? first[0] : localDateTimeMs(r.startDate, '00:00', s.zone));
    if (r.endDate === null) {
      ends.push(null);
      continue;
    }
    let last: Window | undefined;
    for (let i = 0; i < 7 && !last; i++) last = windowsOfDay(s, r, addDays(r.endDate, -i)).at(-1);
    ends.push(last ? last[1] : localDateTimeMs(addDays(r.endDate, 1), '00:00', s.zone));
  }
  const startMs = starts.includes(null) ? null : Math.min(...(starts as number[]));
  const endMs = ends.includes(null) ? null : Math.max(...(ends as number[]));
  return { startMs, endMs };
}

/**
 * The windows in which the schedule is in effect and that overlap [fromMs, untilMs): intervals as
 * published, recurring schedules expanded day by day (exceptions applied). At most 500.
 */
export function scheduleWindows(s: Schedule, fromMs: number, untilMs: number): Window[] {
  const overlaps = ([start, end]: Window) => (start === null || start < untilMs) && (end === null || end > fromMs);
  const windows = s.intervals.filter(overlaps);
  const firstDay = addDays(localDay(fromMs, s.zone).date, -1); // yesterday's overnight window may still run
  const lastDay = localDay(untilMs, s.zone).date;
  for (const r of s.recurring) {
    for (let date = firstDay > r.startDate ? firstDay : r.startDate; date <= lastDay && (r.endDate === null || date <= r.endDate); date = addDays(date, 1)) {
      for (const w of windowsOfDay(s, r, date)) if (overlaps(w)) windows.push(w);
      if (windows.length >= MAX_WINDOWS) break;
    }
  }
  return windows.slice(0, MAX_WINDOWS).sort((a, b) => (a[0] ?? -Infinity) - (b[0] ?? -Infinity));
}
