import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { layerRoute } from './layer.ts';
import { layersListRoute } from './list.ts';
import { layerTileRoute } from './tile.ts';

/** The layer catalog of volume 3 over the enabled 'catalog' release: rows and overlay tiles. */
export const layersRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(layersListRoute);
  await app.register(layerRoute);
  await app.register(layerTileRoute);
};
