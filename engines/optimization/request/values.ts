/**
 * Scalars of the proto3 JSON mapping: Duration ("95s", "1.5s", or {seconds, nanos}), Timestamp
 * (RFC 3339, any offset), int64/int32 (number or decimal string), double (number or numeric
 * string), enums (name or number). Each parser gives the value or the issue to report.
 */
import type { IssueName } from './issues.ts';
import { isRecord } from './normalize.ts';

export type ParsedValue<T> = { ok: true; value: T } | { ok: false; issue: IssueName; message: string };

const ok = <T>(value: T): ParsedValue<T> => ({ ok: true, value });
const bad = (issue: IssueName, message: string): ParsedValue<never> => ({ ok: false, issue, message });

const DURATION = /^-?(?:\d+(?:\.\d*)?|\.\d+)s$/;
const DURATION_HINT = 'must be a duration string of seconds ending in "s", such as "95s" or "1.5s"';

/** Seconds (may be negative; callers decide). */
export function parseDuration(value: unknown): ParsedValue<number> {
  if (typeof value === 'string') {
    if (!DURATION.test(value)) return bad('MALFORMED_VALUE', DURATION_HINT);
    const seconds = Number(value.slice(0, -1));
    return Number.isFinite(seconds) ? ok(seconds) : bad('OUT_OF_RANGE', 'is too large');
  }
  if (isRecord(value)) {
    const keys = Object.keys(value);
    if (keys.some((k) => k !== 'seconds' && k !== 'nanos')) return bad('MALFORMED_VALUE', `${DURATION_HINT}, or an object of seconds and nanos`);
    const seconds = value.seconds === undefined ? ok(0) : parseInt64(value.seconds);
    if (!seconds.ok) return bad('MALFORMED_VALUE', `seconds ${seconds.message}`);
    const nanos = value.nanos === undefined ? ok(0) : parseInt32(value.nanos);
    if (!nanos.ok || Math.abs(nanos.value) > 999_999_999) return bad('MALFORMED_VALUE', 'nanos must be an integer between -999999999 and 999999999');
    if (seconds.value * nanos.value < 0) return bad('MALFORMED_VALUE', 'seconds and nanos must have the same sign');
    return ok(seconds.value + nanos.value / 1e9);
  }
  return bad('MALFORMED_VALUE', DURATION_HINT);
}

const TIMESTAMP = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(\.\d+)?(?:([Zz])|([+-])(\d{2}):(\d{2}))$/;
const TIMESTAMP_HINT = 'must be an RFC 3339 timestamp such as "2024-05-01T08:00:00Z" or "2024-05-01T08:00:00-04:00"';

/** Epoch seconds, fractions kept. */
export function parseTimestamp(value: unknown): ParsedValue<number> {
  if (typeof value !== 'string') return bad('MALFORMED_VALUE', TIMESTAMP_HINT);
  const m = TIMESTAMP.exec(value);
  if (!m) return bad('MALFORMED_VALUE', TIMESTAMP_HINT);
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [number, number, number, number, number, number];
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const valid = year >= 1 && month >= 1 && month <= 12 && date.getUTCDate() === day && date.getUTCMonth() === month - 1
    && hour <= 23 && minute <= 59 && second <= 59;
  if (!valid) return bad('MALFORMED_VALUE', `${TIMESTAMP_HINT} (not a real date or time)`);
  let offset = 0;
  if (!m[8]) {
    const [oh, om] = [Number(m[10]), Number(m[11])];
    if (oh > 23 || om > 59) return bad('MALFORMED_VALUE', `${TIMESTAMP_HINT} (bad offset)`);
    offset = (m[9] === '-' ? -1 : 1) * (oh * 3600 + om * 60);
  }
  const fraction = m[7] ? Number(`0${m[7]}`) : 0;
  return ok(date.getTime() / 1000 + fraction - offset);
}

const INTEGER = /^-?\d+$/;

function parseInteger(value: unknown, min: number, max: number, what: string): ParsedValue<number> {
  const n = typeof value === 'number' ? value : typeof value === 'string' && INTEGER.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n)) return bad('MALFORMED_VALUE', `must be ${what} (a number or a string of digits)`);
  if (n < min || n > max) return bad('OUT_OF_RANGE', `must be between ${min} and ${max}`);
  return ok(n);
}

/** int64 within the exactly representable range. */
export const parseInt64 = (value: unknown): ParsedValue<number> =>
  parseInteger(value, -Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER, 'an integer');

export const parseInt32 = (value: unknown): ParsedValue<number> => parseInteger(value, -(2 ** 31), 2 ** 31 - 1, 'an integer');

const NUMERIC = /^[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?$/;

export function parseDouble(value: unknown): ParsedValue<number> {
  const n = typeof value === 'number' ? value : typeof value === 'string' && NUMERIC.test(value.trim()) ? Number(value) : undefined;
  if (n === undefined) {
    return typeof value === 'string' && /^-?(NaN|Infinity)$/.test(value) ? bad('INVALID_VALUE', 'must be a finite number') : bad('MALFORMED_VALUE', 'must be a number');
  }
  return Number.isFinite(n) ? ok(n) : bad('INVALID_VALUE', 'must be a finite number');
}

export function parseBoolean(value: unknown): ParsedValue<boolean> {
  return typeof value === 'boolean' ? ok(value) : bad('INVALID_TYPE', 'must be true or false');
}

/** An enum by name or by number; `names[i]` is the name of value i. */
export function parseEnum<T extends string>(value: unknown, names: readonly T[]): ParsedValue<T> {
  const listed = names.map((n, i) => `${n} (${i})`).join(', ');
  if (typeof value === 'string' && (names as readonly string[]).includes(value)) return ok(value as T);
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0 && value < names.length) return ok(names[value]!);
  return bad('INVALID_VALUE', `must be one of ${listed}`);
}
