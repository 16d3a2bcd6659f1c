import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { contourTileRoutes } from './contours.ts';
import { terrainTileRoutes } from './terrain.ts';

/** Volume 3 "Maps": terrain (terrarium PNG) and contour tiles of the enabled terrain release. */
export const terrainRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(terrainTileRoutes);
  await app.register(contourTileRoutes);
};
