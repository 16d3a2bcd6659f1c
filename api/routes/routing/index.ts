import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { isochroneRoute } from './isochrone.ts';
import { matrixRoute } from './matrix.ts';
import { routeRoute } from './route.ts';

/** Road routing of volume 3 over the enabled roads release: /route, /isochrone and (flagged) /matrix. */
export const routingRoutes: FastifyPluginAsyncTypebox = async (app) => {
  await app.register(routeRoute);
  await app.register(isochroneRoute);
  await app.register(matrixRoute);
};
