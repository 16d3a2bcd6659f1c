import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ByodFiles } from '../../../engines/byod/files.ts';
import { OpenArchives } from '../../../engines/byod/open-archives.ts';
import { UploadChecker } from '../../../engines/byod/upload-checker.ts';
import type { ByodRouteDeps } from './deps.ts';
import { deleteRoute } from './delete.ts';
import { dataRoute } from './data.ts';
import { listRoute } from './list.ts';
import { overlayRoute } from './overlay.ts';
import { tileRoute } from './tile.ts';
import { TilingQueue } from './tiling-queue.ts';
import { uploadRoute } from './upload.ts';

/**
 * Uploaded overlays ("own data", volume 3): files under BYOD_DIR, metadata in Postgres, GeoJSON
 * tiled by the worker (jobs/byod/). Every answer is the caller's own: another account's overlay is
 * answered exactly like an unknown id.
 */
export const byodRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const deps: ByodRouteDeps = {
    files: new ByodFiles(app.config.byodDir),
    archives: new OpenArchives(),
    tiling: new TilingQueue(app.config, app.log),
    checker: new UploadChecker(),
  };
  app.addHook('onClose', async () => {
    await deps.archives.close();
    await deps.tiling.close();
    await deps.checker.close();
  });
  await app.register(uploadRoute, deps);
  await app.register(listRoute);
  await app.register(overlayRoute);
  await app.register(dataRoute, deps);
  await app.register(tileRoute, deps);
  await app.register(deleteRoute, deps);
};
