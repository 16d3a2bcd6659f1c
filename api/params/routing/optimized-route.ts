/** POST /optimized-route's stops and ends (the options are /matrix's: options.ts). */
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import type { StopEnds } from '../../../engines/routing/stop-order/solve.ts';
import { validLat, validLng } from '../../../lib/geo/parse.ts';
import { STOP_MESSAGE, type OptimizedRouteBody } from '../../../schemas/routing-optimized-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

/** One stop: a [lng, lat] pair or an object with numeric lng and lat. */
function stopOf(raw: unknown): LngLat | null {
  let lng: unknown;
  let lat: unknown;
  if (Array.isArray(raw)) {
    if (raw.length !== 2) return null;
    [lng, lat] = raw;
  } else if (raw !== null && typeof raw === 'object') {
    ({ lng, lat } = raw as { lng?: unknown; lat?: unknown });
  } else {
    return null;
  }
  if (typeof lng !== 'number' || typeof lat !== 'number' || !validLng(lng) || !validLat(lat)) return null;
  return [lng, lat];
}

/** Every stop, or invalid_location naming the first malformed one (`stops[3] must be ...`). */
export function checkStops(raw: readonly unknown[]): Checked<LngLat[]> {
  const stops: LngLat[] = [];
  for (let i = 0; i < raw.length; i++) {
    const stop = stopOf(raw[i]);
    if (!stop) return reject(`stops[${i}] ${STOP_MESSAGE}`, 'invalid_location');
    stops.push(stop);
  }
  return accept(stops);
}

/** start (default first) and end (default last); a round trip (end first) needs a fixed start. */
export function checkStopEnds(body: Pick<OptimizedRouteBody, 'start' | 'end'>): Checked<StopEnds> {
  const ends: StopEnds = { start: body.start ?? 'first', end: body.end ?? 'last' };
  if (ends.end === 'first' && ends.start === 'any') return reject('end=first (a round trip back to the start) needs start=first', 'invalid_route_option');
  return accept(ends);
}
