import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import fp from 'fastify-plugin';
import { closureSnapshotCache, type ClosureSnapshot } from '../../../io/road-events/closure-snapshot.ts';
import type { RoutingPool } from '../../../engines/routing/workers/routing-pool.ts';
import type { Refreshing } from '../../../lib/refreshing.ts';
import { isochroneRoute } from './isochrone.ts';
import { matchRoute } from './match.ts';
import { matrixRoute } from './matrix.ts';
import { optimizedRouteHandler } from './optimized-route.ts';
import { routeHandler } from './route.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The closure snapshots /route warns of, cached in the process (tests invalidate it right after writing closures). */
    closureSnapshots: Refreshing<ClosureSnapshot>;
    /** The built-in road routing's worker threads (ROUTING_WORKERS, ROUTING_TIME_BUDGET_MS), started at the first routing request. */
    routingPool: () => RoutingPool;
  }
}

/** Road routing of volume 3 over the enabled roads release (or Valhalla): /route, /isochrone, (flagged) /matrix, /match, /optimized-route. */
const plugin: FastifyPluginAsyncTypebox = async (app) => {
  app.decorate('closureSnapshots', closureSnapshotCache(app.pg, (err) => app.log.warn({ err }, 'route: could not refresh the closure snapshots from Postgres; the last copy answers')));
  app.decorate('routingPool', app.services.routing.workerPool);
  // The facade starts its worker threads at the first task; they stop with the app.
  app.addHook('onClose', async () => {
    await app.services.routing.close();
  });
  await app.register(routeHandler);
  await app.register(isochroneRoute);
  await app.register(matrixRoute);
  await app.register(matchRoute);
  await app.register(optimizedRouteHandler);
};

export const routingRoutes = fp(plugin, { name: 'canmap-routing' });
