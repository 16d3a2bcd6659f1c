/** Coordinates of the routing endpoints: exactly lng,lat, finite and on the globe. */
import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { plainNumber, plainNumbers, validLat, validLng } from '../../../lib/geo/parse.ts';
import { MAX_ISOCHRONE_BANDS, MAX_ISOCHRONE_MINUTES } from '../../../schemas/routing-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';

const onGlobe = ([lng, lat]: number[]) => validLng(lng!) && validLat(lat!);

/** GET /route from and to (volume 3: a third number is a 400, not a via point). */
export function checkRouteEnds(from: string | undefined, to: string | undefined): Checked<{ from: LngLat; to: LngLat }> {
  const a = plainNumbers(from, 2);
  const b = plainNumbers(to, 2);
  if (!a || !b || !onGlobe(a) || !onGlobe(b)) return reject('from and to must be lng,lat', 'invalid_location');
  return accept({ from: [a[0]!, a[1]!], to: [b[0]!, b[1]!] });
}

/** A JSON [lng, lat] pair of /matrix (the schema already checked it is two numbers). */
export function checkPairs(name: string, pairs: number[][]): Checked<LngLat[]> {
  const bad = pairs.findIndex((p) => !onGlobe(p));
  if (bad !== -1) return reject(`${name}[${bad}] must be [lng, lat] with lng between -180 and 180 and lat between -90 and 90`, 'invalid_location');
  return accept(pairs.map((p) => [p[0]!, p[1]!]));
}

const ISOCHRONE_REQUIRED = 'lon, lat and minutes required';

/**
 * GET /isochrone lon, lat and minutes (volume 3): bands that are not finite or not positive are
 * dropped silently, only an empty remainder is a 400; more than four values or one above 120 are 400s.
 */
export function checkIsochroneQuery(lon: string | undefined, lat: string | undefined, minutes: string | undefined): Checked<{ origin: LngLat; minutes: number[] }> {
  const x = plainNumber(lon);
  const y = plainNumber(lat);
  if (x === null || y === null || minutes === undefined || minutes.trim() === '') return reject(ISOCHRONE_REQUIRED, 'invalid_location');
  if (!validLng(x) || !validLat(y)) return reject('lon must be between -180 and 180 and lat between -90 and 90', 'invalid_location');
  const values = minutes.split(',');
  if (values.length > MAX_ISOCHRONE_BANDS) return reject('at most 4 minutes contours', 'invalid_route_option');
  const kept = values.map(plainNumber).filter((v): v is number => v !== null && v > 0);
  if (kept.some((v) => v > MAX_ISOCHRONE_MINUTES)) return reject('minutes must be 120 or less', 'invalid_route_option');
  const bands = [...new Set(kept)];
  if (bands.length === 0) return reject(ISOCHRONE_REQUIRED, 'invalid_route_option');
  return accept({ origin: [x, y], minutes: bands });
}
