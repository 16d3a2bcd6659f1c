import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ByodRouteDeps } from './deps.ts';
import { deleteRoute } from './delete.ts';
import { dataRoute } from './data.ts';
import { listRoute } from './list.ts';
import { overlayRoute } from './overlay.ts';
import { tileRoute } from './tile.ts';
import { overlayTileJsonRoute } from './tilejson.ts';
import { TilingQueue } from './tiling-queue.ts';
import { uploadRoute } from './upload.ts';

/**
 * Uploaded overlays ("own data", volume 3): files under BYOD_DIR, metadata in Postgres, GeoJSON
 * tiled by the worker (jobs/byod/). Every answer is the caller's own: another account's overlay is
 * answered exactly like an unknown id.
 */
export const byodRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: ByodRouteDeps = {
    tiling: new TilingQueue(app.config, app.log),
  };
  app.addHook('onClose', async () => {
    await app.services.byod.close();
    await deps.tiling.close();
  });
  await app.register(uploadRoute, deps);
  await app.register(listRoute);
  await app.register(overlayRoute);
  await app.register(dataRoute);
  await app.register(tileRoute);
  await app.register(overlayTileJsonRoute);
  await app.register(deleteRoute);
};
