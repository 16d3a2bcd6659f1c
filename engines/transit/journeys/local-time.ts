/**
 * depart_at as an instant: with Z or an offset it is one already; without, it is a wall-clock
 * time in the feed's timezone (IANA), converted across DST like Temporal's "compatible": a time
 * skipped by the spring-forward gap moves forward by the gap, a repeated time takes its first
 * (daylight) occurrence.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?$/;
const formatters = new Map<string, Intl.DateTimeFormat>();

/** UTC epoch seconds (whole, rounded up) of an ISO 8601 date-time already checked by checkTransitQuery. */
export function departureInstant(text: string, timezone: string): number {
  const local = LOCAL.exec(text);
  if (!local) return Math.ceil(Date.parse(withColonOffset(text)) / 1000);
  const [, y, mo, d, h, mi, s, frac] = local;
  const wall = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s ?? 0)) / 1000;
  const fraction = frac ? Number(`0.${frac}`) : 0;
  return Math.ceil(localToUtc(wall, timezone) + fraction);
}

/** `+0500` → `+05:00` (Date.parse wants the colon). */
function withColonOffset(text: string): string {
  return text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2');
}

/** Epoch seconds of the wall-clock time `wall` (seconds as if it were UTC) in `timezone`. */
export function localToUtc(wall: number, timezone: string): number {
  const first = offsetAt(wall, timezone);
  const guess = wall - first;
  const second = offsetAt(guess, timezone);
  if (second === first) return guess;
  const retry = wall - second;
  // A repeated hour reads back the same offset; a skipped one does not: keep the later reading.
  return offsetAt(retry, timezone) === second ? retry : guess;
}

/** The zone's UTC offset in seconds at an instant. */
export function offsetAt(epochSeconds: number, timezone: string): number {
  let format = formatters.get(timezone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: timezone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timezone, format);
  }
  const parts: Record<string, number> = {};
  for (const p of format.formatToParts(new Date(epochSeconds * 1000))) if (p.type !== 'literal') parts[p.type] = Number(p.value);
  const asUtc = Date.UTC(parts.year!, parts.month! - 1, parts.day!, parts.hour!, parts.minute!, parts.second!) / 1000;
  return asUtc - Math.floor(epochSeconds);
}
