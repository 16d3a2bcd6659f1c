import { Type, type Static } from '@sinclair/typebox';
import { ERROR_MESSAGE_KEYWORD, Nullable } from './common.ts';

/** GET /elevation (volume 3 "Catalog and data": parameters and response are ours to design). */

/** Vertices a path may have, and points a profile may be sampled at. */
export const MAX_PATH_POINTS = 100;
export const MAX_PROFILE_SAMPLES = 500;
/** SRTM heights are orthometric: metres above the EGM96 geoid. */
export const ELEVATION_DATUM = 'EGM96 geoid (SRTM)';

export const ELEVATION_ERRORS: Readonly<Record<number, string>> = {
  400: 'a parameter is malformed or missing, or the path has too many points; error names it',
  404: 'no terrain archive is configured (`terrain archive not configured`)',
  503: 'the terrain data is not available right now (retryable)',
};

const once = (description: string, maxLength: number) =>
  Type.Optional(Type.String({ description, maxLength, [ERROR_MESSAGE_KEYWORD]: `must be given once, at most ${maxLength} characters` }));

export const ElevationQuery = Type.Object({
  at: once('One point, lng,lat (WGS84 degrees), e.g. -124.25,48.1. Give at, lon and lat, or path.', 100),
  lon: once('Longitude of one point (with lat), instead of at', 50),
  lat: once('Latitude of one point (with lon), instead of at', 50),
  path: once(`A profile: 2 to ${MAX_PATH_POINTS} points lng,lat separated by semicolons, e.g. -124.3,48.1;-124.2,48.15`, 6000),
  samples: once(`With path: this many points (2 to ${MAX_PROFILE_SAMPLES}) evenly spaced along it by distance, both ends included; without it the path's own points are sampled`, 20),
});
export type ElevationQuery = Static<typeof ElevationQuery>;

const LngLat = Type.Tuple([Type.Number(), Type.Number()], { description: '[lng, lat]' });
const Metres = (description: string) => Nullable(Type.Number({ description }));

export const ElevationPointResponse = Type.Object({
  at: LngLat,
  elevation: Metres('Metres above the datum, bilinear between the DEM posts around the point (exact at a post), to the centimetre; null outside coverage or over a void'),
  unit: Type.Literal('m'),
  datum: Type.String({ description: ELEVATION_DATUM }),
}, { title: 'ElevationPoint' });
export type ElevationPointResponse = Static<typeof ElevationPointResponse>;

export const ProfilePointBody = Type.Object({
  at: LngLat,
  distance: Type.Number({ description: 'Metres along the path from its first point (great-circle legs), to the decimetre' }),
  elevation: Metres('Metres above the datum; null outside coverage'),
});

export const ElevationProfileResponse = Type.Object({
  points: Type.Array(ProfilePointBody),
  length: Type.Number({ description: 'Metres: the whole path' }),
  min: Metres('Lowest point with a height; null when none has one'),
  max: Metres('Highest point with a height; null when none has one'),
  ascent: Type.Number({ description: 'Sum of the rises between consecutive points that both have a height' }),
  descent: Type.Number({ description: 'Sum of the falls between consecutive points that both have a height' }),
  unit: Type.Literal('m'),
  datum: Type.String(),
}, { title: 'ElevationProfile' });
export type ElevationProfileResponse = Static<typeof ElevationProfileResponse>;

export const ElevationResponse = Type.Union([ElevationPointResponse, ElevationProfileResponse]);
