import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { identifyRoute } from './identify.ts';
import { layerRoute } from './layer.ts';
import { layerTileRoute } from './layer-tile.ts';
import { layerTileJsonRoute } from './layer-tilejson.ts';
import { layersListRoute } from './layers-list.ts';
import { queryRoute } from './query.ts';

/**
 * The layer catalog of volume 3 over the enabled 'catalog' release: rows, overlay tiles,
 * /identify (features at a point) and /data/query (features in a box).
 */
export const catalogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(layersListRoute);
  await app.register(layerRoute);
  await app.register(layerTileRoute);
  await app.register(layerTileJsonRoute);
  await app.register(identifyRoute);
  await app.register(queryRoute);
};
