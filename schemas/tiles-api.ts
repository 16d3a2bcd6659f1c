import { Type } from '@sinclair/typebox';

/** Volume 3 "Maps", GET /tiles/{z}/{x}/{y}: what each error status means. */
export const TILES_ERRORS: Readonly<Record<number, string>> = {
  400: 'plain text `invalid tile coordinates`: z, x or y is not a whole number, or x or y is outside zoom z',
  503: 'no basemap release is being served (retryable)',
};

/** z/x/y as the path gives them (y may end in .pbf or .mvt); checked by api/params/tiles.ts. */
export const BasemapTileParams = Type.Object({ z: Type.String(), x: Type.String(), y: Type.String() });
