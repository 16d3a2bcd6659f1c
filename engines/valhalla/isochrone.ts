/**
 * GET /isochrone through Valhalla's /isochrone: one location, one time contour per band,
 * polygons (not lines), denoise 1 (each band's largest ring only, as our grid contours). The
 * GeoJSON features are matched to our bands by `properties.contour` (never by position) and their
 * coordinates cut to six decimals; our styling properties replace Valhalla's.
 */
import type { IsochroneBand } from '../routing/isochrone.ts';
import type { BandGeometry } from '../routing/isochrone-polygons.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import type { ValhallaClient } from './call.ts';
import { costingOf, location, type ValhallaOptions } from './costing.ts';
import { malformed } from './failure.ts';

export function isochroneRequest(origin: LngLat, bandsMinutes: readonly number[], options: ValhallaOptions) {
  return {
    locations: [location(origin)],
    ...costingOf(options),
    contours: bandsMinutes.map((time) => ({ time })),
    polygons: true,
    denoise: 1,
    units: 'kilometers',
  };
}

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

type Position = [number, number];

function ring(action: string, raw: unknown): Position[] {
  if (!Array.isArray(raw) || raw.length < 4) throw malformed(action, 'a polygon ring of fewer than four positions');
  return raw.map((p: unknown) => {
    if (!Array.isArray(p) || !Number.isFinite(p[0]) || !Number.isFinite(p[1])) throw malformed(action, 'a position that is not [lon, lat]');
    return [round6(p[0] as number), round6(p[1] as number)];
  });
}

function geometryOf(raw: unknown): BandGeometry {
  const g = raw as { type?: unknown; coordinates?: unknown } | null;
  if (g?.type === 'Polygon' && Array.isArray(g.coordinates)) return { type: 'Polygon', coordinates: g.coordinates.map((r) => ring('isochrone', r)) };
  if (g?.type === 'MultiPolygon' && Array.isArray(g.coordinates)) {
    return { type: 'MultiPolygon', coordinates: g.coordinates.map((p: unknown) => {
      if (!Array.isArray(p)) throw malformed('isochrone', 'a MultiPolygon member that is not a polygon');
      return p.map((r) => ring('isochrone', r));
    }) };
  }
  // A LineString contour means polygons were not honoured: not an area we can answer.
  throw malformed('isochrone', `a contour geometry of type ${String(g?.type)}`);
}

/**
 * One band per entry of `bandsMinutes` (in that order) from Valhalla's FeatureCollection; a band
 * Valhalla did not answer is the backend failing.
 */
export function bandsFromIsochrone(json: unknown, bandsMinutes: readonly number[]): IsochroneBand[] {
  const features = (json as { features?: unknown }).features;
  if (!Array.isArray(features)) throw malformed('isochrone', 'no features');
  return bandsMinutes.map((minutes) => {
    const feature = features.find((f: { properties?: { contour?: unknown } } | null) =>
      typeof f?.properties?.contour === 'number' && Math.abs(f.properties.contour - minutes) < 1e-9);
    if (!feature) throw malformed('isochrone', `no contour of ${minutes} minutes`);
    return { seconds: minutes * 60, geometry: geometryOf((feature as { geometry?: unknown }).geometry) };
  });
}

/** The bands (largest first when `bandsMinutes` is so sorted); throws a ValhallaFailure. */
export async function valhallaIsochrone(client: ValhallaClient, origin: LngLat, bandsMinutes: readonly number[], options: ValhallaOptions): Promise<IsochroneBand[]> {
  return bandsFromIsochrone(await client.call('isochrone', isochroneRequest(origin, bandsMinutes, options)), bandsMinutes);
}
