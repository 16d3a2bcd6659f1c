import moment from 'moment-timezone';

/** An instant as the publisher wrote it, normalized: ISO 8601 with its UTC offset, and epoch ms. */
export interface PublisherTime {
  iso: string;
  ms: number;
}

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?(Z|[+-]\d{2}(:?\d{2})?)$/;
const LOCAL = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{3})?)?$/;
const LOCAL_FORMATS = ['YYYY-MM-DDTHH:mm', 'YYYY-MM-DDTHH:mm:ss', 'YYYY-MM-DDTHH:mm:ss.SSS'];
const OUTPUT = 'YYYY-MM-DDTHH:mm:ssZ';

/**
 * The ISO 8601 variants publishers write, in one strict form: upper-case T and Z, a space
 * separator as T, and a fraction of 1–9 digits as exactly 3 (truncated: outputs keep seconds).
 */
function normalizeIso(value: string): string {
  const m = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}:\d{2}(?::\d{2})?)(?:\.(\d{1,9}))?([Zz]|[+-]\d{2}(?::?\d{2})?)?$/.exec(value);
  if (!m) return value;
  const [, date, time, fraction, zone] = m;
  return `${date}T${time}${fraction === undefined ? '' : `.${fraction.slice(0, 3).padEnd(3, '0')}`}${zone === undefined ? '' : zone.toUpperCase()}`;
}

/**
 * A publisher timestamp. With an offset (or Z) it keeps that offset; without one it is local
 * time in `zone`, resolved with moment-timezone's IANA data (Node's own Intl data is too old for
 * British Columbia's 2026 change to permanent UTC−7). A local time that does not exist (the
 * spring-forward hour) moves forward by the gap; an ambiguous one takes the earlier offset.
 * Anything else is null.
 */
export function parsePublisherTime(text: unknown, zone: string): PublisherTime | null {
  if (typeof text !== 'string') return null;
  const value = normalizeIso(text.trim());
  if (WITH_OFFSET.test(value)) {
    const parsed = moment.parseZone(value, moment.ISO_8601, true);
    return parsed.isValid() ? { iso: parsed.format(OUTPUT), ms: parsed.valueOf() } : null;
  }
  if (LOCAL.test(value)) {
    const parsed = moment.tz(value, LOCAL_FORMATS, true, zone);
    return parsed.isValid() ? { iso: parsed.format(OUTPUT), ms: parsed.valueOf() } : null;
  }
  return null;
}

// Schedules ask for the same few local dates and times over and over (every event, every request
// that recomputes a status); moment's zone-aware parse is the slow part, so answers are kept.
const localTimes = new Map<string, number | null>();
const LOCAL_TIMES_KEPT = 20_000;

/** A local date and time of day (`YYYY-MM-DD`, `HH:mm`) in `zone`, as epoch ms; null if invalid. */
export function localDateTimeMs(date: string, time: string, zone: string): number | null {
  const key = `${zone} ${date}T${time}`;
  const known = localTimes.get(key);
  if (known !== undefined) return known;
  const parsed = moment.tz(`${date}T${time}`, 'YYYY-MM-DDTHH:mm', true, zone);
  const ms = parsed.isValid() ? parsed.valueOf() : null;
  if (localTimes.size >= LOCAL_TIMES_KEPT) localTimes.clear();
  localTimes.set(key, ms);
  return ms;
}

/** The instant as ISO 8601 with the offset `zone` has then (for times computed from schedules). */
export function isoInZone(ms: number, zone: string): string {
  return moment.tz(ms, zone).format(OUTPUT);
}

/** ISO 8601 UTC with seconds, e.g. 2026-03-08T15:00:00Z. */
export function isoUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}

/** The local calendar date (YYYY-MM-DD) and ISO weekday (1 = Monday) of an instant in `zone`. */
export function localDay(ms: number, zone: string): { date: string; weekday: number } {
  const local = moment.tz(ms, zone);
  return { date: local.format('YYYY-MM-DD'), weekday: local.isoWeekday() };
}

function utcDate(date: string): Date {
  const d = new Date(0);
  d.setUTCFullYear(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10))); // not Date.UTC: it reads years 0–99 as 1900–1999
  return d;
}

/** The calendar date `days` after `date` (YYYY-MM-DD, a valid date), zone-free. */
export function addDays(date: string, days: number): string {
  const d = utcDate(date);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** ISO weekday of a calendar date (YYYY-MM-DD): 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  return utcDate(date).getUTCDay() || 7;
}

export const isValidZone = (zone: unknown): zone is string => typeof zone === 'string' && moment.tz.zone(zone) !== null;
