import { Type } from '@sinclair/typebox';

/** GET /terrain and /contours tiles (volume 3 "Maps"): plain strings, the routes word their own plain-text 400. */

export const TERRAIN_TILE_ERRORS: Readonly<Record<number, string>> = {
  400: 'plain text: `invalid tile coordinates`, or `invalid version` for a version segment that is not a positive integer',
  404: 'JSON `{error: "terrain archive not configured"}` (or contour) when no archive is configured; plain text for a version segment newer than the current one',
  503: 'the terrain data is not available right now (retryable)',
};

export const VersionedTileParams = Type.Object({ version: Type.String(), z: Type.String(), x: Type.String(), y: Type.String() });
export const TileParams = Type.Object({ z: Type.String(), x: Type.String(), y: Type.String() });
