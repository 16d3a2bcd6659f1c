import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { closuresRoute } from './closures.ts';
import { incidentsRoute } from './incidents.ts';
import { roadConditionsRoute } from './road-conditions.ts';
import { RoadEventsCache } from './snapshot-cache.ts';

/** The live road-event endpoints of volume 2, served from the snapshots the worker's polls store in Postgres. */
export const roadEventsRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const cache = new RoadEventsCache(app.pg, (err) => app.log.warn({ err }, 'road events: could not refresh the snapshot from Postgres'));
  await app.register(incidentsRoute, { cache });
  await app.register(closuresRoute, { cache });
  await app.register(roadConditionsRoute, { cache });
};
