import type { LngLat } from '../../../lib/geo/lng-lat.ts';
import { parseLngLat, plainNumber } from '../../../lib/geo/parse.ts';
import { MAX_PATH_POINTS, MAX_PROFILE_SAMPLES, type ElevationQuery } from '../../../schemas/elevation-api.ts';
import { accept, reject, type Checked } from '../../../lib/checked.ts';
import type { ElevationRequest } from '../../../services/maps/index.ts';

export type { ElevationRequest };

const AT_FORMAT = 'at must be lng,lat: two decimal numbers separated by a comma, e.g. at=-124.25,48.1';
const PROBLEM_WORDING = { longitude: 'longitude must be between -180 and 180', latitude: 'latitude must be between -90 and 90' } as const;

/** One point (at, or lon and lat) or one path (with samples); never both. */
export function sanitizeElevationQuery(query: ElevationQuery): Checked<ElevationRequest> {
  const point = query.at !== undefined || query.lon !== undefined || query.lat !== undefined;
  if (point && query.path !== undefined) return reject('give either a point (at, or lon and lat) or a path, not both');
  if (query.path !== undefined) return sanitizePath(query.path, query.samples);
  if (query.samples !== undefined) return reject('samples needs a path (path=lng,lat;lng,lat;...)');
  if (!point) return reject('at (lng,lat) or path (lng,lat;lng,lat;...) is required');
  return sanitizePoint(query);
}

function sanitizePoint(query: ElevationQuery): Checked<ElevationRequest> {
  if (query.at === undefined && (query.lon === undefined || query.lat === undefined)) {
    return reject(`${query.lon === undefined ? 'lon' : 'lat'} is required with ${query.lon === undefined ? 'lat' : 'lon'} (or give at=lng,lat)`);
  }
  if (query.at !== undefined && (query.lon !== undefined || query.lat !== undefined)) return reject('give at or lon and lat, not both');
  const parsed = parseLngLat(query.at ?? `${query.lon},${query.lat}`);
  if (parsed.ok) return accept({ kind: 'point', at: [parsed.value.lng, parsed.value.lat] });
  if (parsed.problem === 'format') return reject(query.at !== undefined ? AT_FORMAT : 'lon and lat must be decimal numbers');
  return reject(query.at !== undefined ? `${PROBLEM_WORDING[parsed.problem]} (at is lng,lat)` : parsed.problem === 'longitude' ? 'lon must be between -180 and 180' : 'lat must be between -90 and 90');
}

function sanitizePath(raw: string, rawSamples: string | undefined): Checked<ElevationRequest> {
  const parts = raw.split(';');
  if (parts.at(-1)?.trim() === '') parts.pop(); // a trailing semicolon
  if (parts.length < 2) return reject(`path needs at least 2 points lng,lat separated by semicolons (got ${parts.length}); for one point use at=lng,lat`);
  if (parts.length > MAX_PATH_POINTS) return reject(`path has ${parts.length} points; at most ${MAX_PATH_POINTS}`);
  const path: LngLat[] = [];
  for (const [i, part] of parts.entries()) {
    const parsed = parseLngLat(part);
    if (!parsed.ok) {
      const why = parsed.problem === 'format' ? 'is not lng,lat (two decimal numbers separated by a comma)' : `has a ${PROBLEM_WORDING[parsed.problem]}`;
      return reject(`path point ${i + 1} (${JSON.stringify(part.slice(0, 40))}) ${why}`);
    }
    path.push([parsed.value.lng, parsed.value.lat]);
  }
  if (rawSamples === undefined) return accept({ kind: 'profile', path });
  const samples = plainNumber(rawSamples);
  if (samples === null || !Number.isInteger(samples) || samples < 2 || samples > MAX_PROFILE_SAMPLES) {
    return reject(`samples must be an integer between 2 and ${MAX_PROFILE_SAMPLES}`);
  }
  return accept({ kind: 'profile', path, samples });
}
