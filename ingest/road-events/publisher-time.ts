import moment from 'moment-timezone';

/** An instant as the publisher wrote it, normalized: ISO 8601 with its UTC offset, and epoch ms. */
export interface PublisherTime {
  iso: string;
  ms: number;
}

const WITH_OFFSET = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}(:?\d{2})?)$/i;
const LOCAL = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?$/;
const LOCAL_FORMATS = ['YYYY-MM-DDTHH:mm', 'YYYY-MM-DDTHH:mm:ss', 'YYYY-MM-DDTHH:mm:ss.SSS', 'YYYY-MM-DD HH:mm', 'YYYY-MM-DD HH:mm:ss'];
const OUTPUT = 'YYYY-MM-DDTHH:mm:ssZ';

/**
 * A publisher timestamp. With an offset (or Z) it keeps that offset; without one it is local
 * time in `zone`, resolved with moment-timezone's IANA data (Node's own Intl data is too old for
 * British Columbia's 2026 change to permanent UTC−7). A local time that does not exist (the
 * spring-forward hour) moves forward by the gap; an ambiguous one takes the earlier offset.
 * Anything else is null.
 */
export function parsePublisherTime(text: unknown, zone: string): PublisherTime | null {
  if (typeof text !== 'string') return null;
  const value = text.trim();
  if (WITH_OFFSET.test(value)) {
    const parsed = moment.parseZone(value, moment.ISO_8601, true);
    return parsed.isValid() ? { iso: parsed.format(OUTPUT), ms: parsed.valueOf() } : null;
  }
  if (LOCAL.test(value)) {
    const parsed = moment.tz(value.slice(0, 23), LOCAL_FORMATS, true, zone);
    return parsed.isValid() ? { iso: parsed.format(OUTPUT), ms: parsed.valueOf() } : null;
  }
  return null;
}

/** A local date and time of day (`YYYY-MM-DD`, `HH:mm`) in `zone`, as epoch ms; null if invalid. */
export function localDateTimeMs(date: string, time: string, zone: string): number | null {
  const parsed = moment.tz(`${date}T${time}`, 'YYYY-MM-DDTHH:mm', true, zone);
  return parsed.isValid() ? parsed.valueOf() : null;
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

/** The calendar date `days` after `date` (YYYY-MM-DD), zone-free. */
export function addDays(date: string, days: number): string {
  return moment.utc(date, 'YYYY-MM-DD', true).add(days, 'days').format('YYYY-MM-DD');
}

export function isoWeekday(date: string): number {
  return moment.utc(date, 'YYYY-MM-DD', true).isoWeekday();
}

export const isValidZone = (zone: unknown): zone is string => typeof zone === 'string' && moment.tz.zone(zone) !== null;
