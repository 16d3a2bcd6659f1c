/** POST /match points: each exactly [lng, lat] or {lng, lat, time?, accuracy?}, times non-decreasing. */
import type { TraceFix } from '../../../engines/routing/match/trace.ts';
import { validLat, validLng } from '../../../lib/geo/parse.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

const ISO_8601 = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const MAX_ACCURACY_METRES = 1000;

const coordinate = (value: unknown, valid: (n: number) => boolean): number | null =>
  typeof value === 'number' && Number.isFinite(value) && valid(value) ? value : null;

/** Unix seconds of a point's time, undefined when absent, null when malformed. */
function timeOf(raw: unknown): number | null | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw === 'number') return Number.isFinite(raw) ? raw : null;
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  const m = ISO_8601.exec(text);
  if (!m) return null;
  // Without an offset the time is read as UTC: only the order of times matters here.
  const ms = Date.parse(m[1] ? text : `${text}Z`);
  return Number.isFinite(ms) ? ms / 1000 : null;
}

function fixOf(point: unknown, i: number): Checked<TraceFix> {
  const shape = `points[${i}] must be [lng, lat] or {lng, lat}`;
  if (Array.isArray(point)) {
    const lng = coordinate(point[0], validLng);
    const lat = coordinate(point[1], validLat);
    if (point.length !== 2 || lng === null || lat === null) return reject(shape, 'invalid_location');
    return accept({ lng, lat, time: null, accuracy: null });
  }
  if (typeof point !== 'object' || point === null) return reject(shape, 'invalid_location');
  const p = point as Record<string, unknown>;
  const lng = coordinate(p.lng, validLng);
  const lat = coordinate(p.lat, validLat);
  if (lng === null || lat === null) return reject(shape, 'invalid_location');
  const time = timeOf(p.time);
  if (time === null) return reject(`points[${i}].time must be unix seconds or an ISO 8601 date-time`, 'invalid_location');
  const accuracy = p.accuracy;
  if (accuracy !== undefined && (typeof accuracy !== 'number' || !(accuracy > 0 && accuracy <= MAX_ACCURACY_METRES))) {
    return reject(`points[${i}].accuracy must be a number of metres greater than 0 and at most ${MAX_ACCURACY_METRES}`, 'invalid_location');
  }
  return accept({ lng, lat, time: time ?? null, accuracy: (accuracy as number | undefined) ?? null });
}

/** The trace's fixes, or the 400 naming the first point at fault. */
export function checkMatchPoints(points: readonly unknown[]): Checked<TraceFix[]> {
  const fixes: TraceFix[] = [];
  let lastTime: { index: number; time: number } | null = null;
  for (let i = 0; i < points.length; i++) {
    const fix = fixOf(points[i], i);
    if (!fix.ok) return fix;
    const { time } = fix.value;
    if (time !== null) {
      if (lastTime && time < lastTime.time) {
        return reject(`points[${i}].time is before points[${lastTime.index}].time: times must not decrease`, 'invalid_location');
      }
      lastTime = { index: i, time };
    }
    fixes.push(fix.value);
  }
  return accept(fixes);
}
