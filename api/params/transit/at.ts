import { accept, reject, type Checked } from '../../../lib/checked.ts';

// date T time [Z | ±hh[:mm]]; a space in the sign's place is a '+' that the query string decoded.
const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+\- ])(\d{2})(?::?(\d{2}))?)?$/;
const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;

const FORMAT_HINT = 'e.g. 2026-03-08T14:30:00Z or 2026-03-08T09:30:00-05:00';

/**
 * at: an ISO 8601 instant with Z or a UTC offset, as epoch seconds (fractions kept). A local
 * time without offset is refused: it names no instant until a time zone is chosen.
 * Absent → now.
 */
export function sanitizeAt(raw: unknown, now: () => number = Date.now): Checked<number> {
  if (raw === undefined) return accept(now() / 1000);
  if (typeof raw !== 'string' || raw.trim() === '') return reject(`at must be an ISO 8601 instant with Z or an offset, ${FORMAT_HINT}`);
  const text = raw.trim();
  if (LOCAL_DATE.test(text)) return reject(`at must include a time of day and Z or an offset, ${FORMAT_HINT}`);
  const m = INSTANT.exec(text);
  if (!m) return reject(`at must be an ISO 8601 instant with Z or an offset, ${FORMAT_HINT}`);
  const [, y, mo, d, h, mi, s, frac, zulu, sign, oh, om] = m;
  if (!zulu && !sign) return reject(`at must carry Z or a UTC offset; a local time without offset is ambiguous, ${FORMAT_HINT}`);

  const year = Number(y), month = Number(mo), day = Number(d);
  const hour = Number(h), minute = Number(mi), second = Number(s ?? 0);
  const offsetHours = Number(oh ?? 0), offsetMinutes = Number(om ?? 0);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month) || hour > 23 || minute > 59 || second > 59) {
    return reject(`at is not a valid date and time: ${JSON.stringify(text)}`);
  }
  if (offsetHours > 23 || offsetMinutes > 59) return reject(`at has an invalid UTC offset: ${JSON.stringify(text)}`);

  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day); // setUTCFullYear: years 0–99 are not shifted to 19xx
  date.setUTCHours(hour, minute, second, 0);
  const fraction = frac ? Number(`0.${frac}`) : 0;
  const offsetSeconds = (sign === '-' ? -1 : 1) * (offsetHours * 3600 + offsetMinutes * 60);
  return accept(date.getTime() / 1000 + fraction - offsetSeconds);
}

function daysInMonth(year: number, month: number): number {
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  return [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
}
