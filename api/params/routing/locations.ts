/** Coordinates of the routing endpoints: exactly lng,lat, finite and on the globe. */
import type { LngLat } from '../../../engines/routing/road-graph.ts';
import { plainNumber, plainNumbers, validLat, validLng } from '../../../lib/geo/parse.ts';
import { MAX_ISOCHRONE_BANDS, MAX_ISOCHRONE_MINUTES } from '../../../schemas/routing-api.ts';
import { fail, pass, type Checked } from './checked.ts';

const onGlobe = ([lng, lat]: number[]) => validLng(lng!) && validLat(lat!);

/** GET /route from and to (volume 3: a third number is a 400, not a via point). */
export function checkRouteEnds(from: string | undefined, to: string | undefined): Checked<{ from: LngLat; to: LngLat }> {
  const a = plainNumbers(from, 2);
  const b = plainNumbers(to, 2);
  if (!a || !b || !onGlobe(a) || !onGlobe(b)) return fail('invalid_location', 'from and to must be lng,lat');
  return pass({ from: [a[0]!, a[1]!], to: [b[0]!, b[1]!] });
}

/** A JSON [lng, lat] pair of /matrix (the schema already checked it is two numbers). */
export function checkPairs(name: string, pairs: number[][]): Checked<LngLat[]> {
  const bad = pairs.findIndex((p) => !onGlobe(p));
  if (bad !== -1) return fail('invalid_location', `${name}[${bad}] must be [lng, lat] with lng between -180 and 180 and lat between -90 and 90`);
  return pass(pairs.map((p) => [p[0]!, p[1]!]));
}

const ISOCHRONE_REQUIRED = 'lon, lat and minutes required';

/**
 * GET /isochrone lon, lat and minutes (volume 3): bands that are not finite or not positive are
 * dropped silently, only an empty remainder is a 400; more than four values or one above 120 are 400s.
 */
export function checkIsochroneQuery(lon: string | undefined, lat: string | undefined, minutes: string | undefined): Checked<{ origin: LngLat; minutes: number[] }> {
  const x = plainNumber(lon);
  const y = plainNumber(lat);
  if (x === null || y === null || minutes === undefined || minutes.trim() === '') return fail('invalid_location', ISOCHRONE_REQUIRED);
  if (!validLng(x) || !validLat(y)) return fail('invalid_location', 'lon must be between -180 and 180 and lat between -90 and 90');
  const values = minutes.split(',');
  if (values.length > MAX_ISOCHRONE_BANDS) return fail('invalid_route_option', 'at most 4 minutes contours');
  const kept = values.map(plainNumber).filter((v): v is number => v !== null && v > 0);
  if (kept.some((v) => v > MAX_ISOCHRONE_MINUTES)) return fail('invalid_route_option', 'minutes must be 120 or less');
  const bands = [...new Set(kept)];
  if (bands.length === 0) return fail('invalid_route_option', ISOCHRONE_REQUIRED);
  return pass({ origin: [x, y], minutes: bands });
}
