import { elevationProfile } from '../../engines/terrain/elevation-profile.ts';
import type { LngLat } from '../../lib/geo/lng-lat.ts';
import { ELEVATION_DATUM, type ElevationPointResponse, type ElevationProfileResponse } from '../../schemas/elevation-api.ts';
import type { ServiceDeps } from '../deps.ts';
import { useTerrainRelease } from './terrain-release.ts';

/** A checked /elevation request: one point, or a path sampled at its own points or at `samples` points along it. */
export type ElevationRequest = { kind: 'point'; at: LngLat } | { kind: 'profile'; path: LngLat[]; samples?: number };

const round = (value: number, digits: number) => Math.round(value * 10 ** digits) / 10 ** digits;
const metres = (value: number | null) => (value === null ? null : round(value, 2));

/** Heights from the enabled terrain release's DEM (404 when none is configured, 503 while it is unavailable). */
export function elevation(deps: ServiceDeps, asked: ElevationRequest): Promise<ElevationPointResponse | ElevationProfileResponse> {
  return useTerrainRelease(deps.releases, 'terrain', async ({ dem }): Promise<ElevationPointResponse | ElevationProfileResponse> => {
    if (asked.kind === 'point') {
      const [lng, lat] = asked.at;
      return { at: [lng, lat], elevation: metres(dem.elevationAt(lng, lat)), unit: 'm', datum: ELEVATION_DATUM };
    }
    const profile = elevationProfile(dem, asked.path, asked.samples);
    return {
      points: profile.points.map((p) => ({ at: p.at, distance: round(p.distance, 1), elevation: metres(p.elevation) })),
      length: round(profile.length, 1),
      min: metres(profile.min),
      max: metres(profile.max),
      ascent: round(profile.ascent, 2),
      descent: round(profile.descent, 2),
      unit: 'm',
      datum: ELEVATION_DATUM,
    };
  });
}
